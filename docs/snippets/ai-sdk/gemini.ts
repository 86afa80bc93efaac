import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { Container } from 'inversify';

import { AffordanceRuntime, installAffordance, ProviderAdapter } from 'affordance';
import { AiSdkAdapter } from 'affordance/ai-sdk';

/** Where the Gemini API is and the key to use (the package reads GOOGLE_GENERATIVE_AI_API_KEY by default). */
export interface GeminiSetup {
  readonly apiKey: string;
  readonly baseURL?: string;
}

// #region adapter
/** An application container whose prompts run on Gemini through the AI SDK. */
export function geminiRuntime(setup: GeminiSetup): AffordanceRuntime {
  const google = createGoogleGenerativeAI(setup);
  const adapter = new AiSdkAdapter({
    model: google('gemini-2.5-flash'),
    // Keep the key out of every error the adapter throws.
    secrets: [setup.apiKey],
    // Passed through to @ai-sdk/google as they are.
    providerOptions: {
      google: { thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
    },
    settings: { temperature: 0.2, maxOutputTokens: 2048 },
  });
  const container = new Container();
  installAffordance(container);
  container.bind(ProviderAdapter).toConstantValue(adapter);
  return container.get(AffordanceRuntime);
}
// #endregion adapter
