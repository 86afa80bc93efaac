import { AzureOpenAI } from 'openai';

import { OpenAIAdapter } from 'affordance/openai';

/** Where the Azure resource is and how to reach it (in production: from the environment). */
export interface AzureSettings {
  /** `https://<resource>.openai.azure.com` (`AZURE_OPENAI_ENDPOINT`). */
  readonly endpoint: string;
  /** The resource's key (`AZURE_OPENAI_API_KEY`), sent as the `api-key` header. */
  readonly apiKey: string;
}

// #region chat
/** Chat Completions on a deployment: `/openai/deployments/gpt-4o-prod/chat/completions?api-version=...`. */
export function azureChatAdapter(settings: AzureSettings): OpenAIAdapter {
  const client = new AzureOpenAI({
    endpoint: settings.endpoint,
    apiKey: settings.apiKey,
    apiVersion: '2024-10-21',
    deployment: 'gpt-4o-prod',
  });
  return new OpenAIAdapter(client, { model: 'gpt-4o-prod', api: 'chat' });
}
// #endregion chat

// #region responses
/** The Responses API: `/openai/responses?api-version=...`, the deployment named as the model. */
export function azureResponsesAdapter(settings: AzureSettings): OpenAIAdapter {
  const client = new AzureOpenAI({
    endpoint: settings.endpoint,
    apiKey: settings.apiKey,
    apiVersion: '2025-04-01-preview',
  });
  return new OpenAIAdapter(client, { model: 'gpt-4o-prod' });
}
// #endregion responses
