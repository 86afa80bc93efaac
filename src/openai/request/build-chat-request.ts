import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';

import { type ProviderRequest } from '../../provider/index.js';
import { chatMessages } from './chat-messages.js';
import type { OpenAIAdapterOptions } from '../openai-adapter-options.js';
import { namedTool } from './named-tool.js';
import { structuredOutputFormat } from './structured-output-format.js';

/** A Chat Completions request body and what reading its answer needs to know. */
export interface ChatRequest {
  readonly body: ChatCompletionCreateParamsNonStreaming;
  /** Whether the structured-output schema was sent strict. */
  readonly strictOutput: boolean;
}

/**
 * The `POST /chat/completions` body for one provider request: messages,
 * function tools (with `strict` explicit; `ShellTool` and `ApplyPatchTool` are
 * plain functions here), `tool_choice` and `parallel_tool_calls` (only with
 * tools, which OpenAI requires), `response_format` and the model settings.
 */
export function buildChatRequest(
  request: ProviderRequest,
  options: OpenAIAdapterOptions,
  prompt: string,
): ChatRequest {
  const role = options.instructionsRole ?? 'system';
  const body: Record<string, unknown> = {
    model: options.model,
    messages: chatMessages(request.messages, role),
  };
  if (request.tools.length > 0) {
    body['tools'] = request.tools.map((spec): ChatCompletionTool => ({
      type: 'function',
      function: {
        name: spec.name,
        description: spec.description,
        parameters: spec.parameters,
        strict: spec.strict,
      },
    }));
    const choice = request.toolChoice;
    body['tool_choice'] =
      typeof choice === 'string'
        ? choice
        : {
            type: 'function',
            function: { name: namedTool(choice.name, request.tools, prompt).name },
          };
    body['parallel_tool_calls'] = options.parallelToolCalls ?? true;
  }
  const format =
    (options.structuredOutput ?? 'json_schema') === 'json_schema'
      ? structuredOutputFormat(request.output, request.prompt.name)
      : undefined;
  if (format !== undefined) {
    body['response_format'] = {
      type: 'json_schema',
      json_schema: { name: format.name, schema: format.schema, strict: format.strict },
    };
  }
  const settings = options.modelSettings ?? {};
  const set = (key: string, value: unknown): void => {
    if (value !== undefined) body[key] = value;
  };
  set('max_completion_tokens', settings.maxOutputTokens);
  set('temperature', settings.temperature);
  set('top_p', settings.topP);
  set('reasoning_effort', settings.reasoning?.effort);
  set('store', settings.store);
  set('verbosity', settings.verbosity);
  set('service_tier', settings.serviceTier);
  set('safety_identifier', settings.safetyIdentifier);
  set('prompt_cache_key', settings.promptCacheKey);
  if (settings.metadata !== undefined) body['metadata'] = { ...settings.metadata };
  Object.assign(body, settings.extraBody);
  return {
    body: body as unknown as ChatCompletionCreateParamsNonStreaming,
    strictOutput: format?.strict === true,
  };
}
