import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';

import { checkProviderMedia, type ProviderRequest } from '../../provider/index.js';
import { ANTHROPIC_MEDIA } from './anthropic-media.js';
import {
  type AnthropicAdapterOptions,
  type AnthropicCacheOptions,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
} from '../anthropic-adapter-options.js';
import { messagesConversation } from './messages-conversation.js';
import { messagesTools } from './messages-tools.js';
import { type OutputSchema, outputSchema } from './output-schema.js';

/** The body of one request, and what reading its answer needs to know of it. */
export interface MessagesRequestPlan {
  readonly body: MessageCreateParamsNonStreaming;
  /** The output schema sent, if the prompt asks for structured output in `json_schema` or `tool` mode. */
  readonly output: OutputSchema | undefined;
  /** The name of the forced output tool, in `tool` mode. */
  readonly outputTool: string | undefined;
  /** The `max_tokens` sent. */
  readonly maxTokens: number;
}

/**
 * The Messages API body of a request: model, `max_tokens`, the system prompt
 * and messages, tools and tool choice, sampling settings, extended thinking,
 * cache breakpoints and the structured-output format, then `extraBody`.
 */
export function buildMessagesRequest(
  request: ProviderRequest,
  options: AnthropicAdapterOptions,
): MessagesRequestPlan {
  const maxTokens = options.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS;
  const cache = cacheOf(options.cache);
  const cacheControl = cache === undefined ? undefined : cacheControlOf(cache);
  const mode = options.structuredOutput ?? 'json_schema';
  const output =
    request.output === undefined || mode === 'text' ? undefined : outputSchema(request.output);
  const outputTool =
    output === undefined || mode !== 'tool' ? undefined : freeName(request, 'final_answer');
  checkProviderMedia(ANTHROPIC_MEDIA, request.messages);
  const { system, messages } = messagesConversation(request.messages);
  const body: Record<string, unknown> = { model: options.model, max_tokens: maxTokens, messages };
  if (system !== undefined) {
    body['system'] =
      cache?.system === false || cacheControl === undefined
        ? system
        : [{ type: 'text', text: system, cache_control: cacheControl }];
  }
  const { tools, toolChoice } = messagesTools(request, {
    parallelToolCalls: options.parallelToolCalls ?? true,
    outputTool:
      outputTool === undefined || output === undefined
        ? undefined
        : { name: outputTool, schema: output.schema },
    thinking: options.thinking !== undefined,
    cacheControl: cache?.tools === false ? undefined : cacheControl,
  });
  if (tools.length > 0) body['tools'] = tools;
  if (toolChoice !== undefined) body['tool_choice'] = toolChoice;
  if (output !== undefined && outputTool === undefined) {
    body['output_config'] = { format: { type: 'json_schema', schema: output.schema } };
  }
  addSettings(body, options);
  return {
    body: body as unknown as MessageCreateParamsNonStreaming,
    output,
    outputTool,
    maxTokens,
  };
}

function addSettings(body: Record<string, unknown>, options: AnthropicAdapterOptions): void {
  const settings = options.modelSettings ?? {};
  if (options.thinking !== undefined) {
    const thinking: Record<string, unknown> = {
      type: 'enabled',
      budget_tokens: options.thinking.budgetTokens,
    };
    if (options.thinking.display !== undefined) thinking['display'] = options.thinking.display;
    body['thinking'] = thinking;
  }
  if (settings.temperature !== undefined) body['temperature'] = settings.temperature;
  if (settings.topP !== undefined) body['top_p'] = settings.topP;
  if (settings.topK !== undefined) body['top_k'] = settings.topK;
  if (settings.stopSequences !== undefined) body['stop_sequences'] = [...settings.stopSequences];
  if (settings.userId !== undefined) body['metadata'] = { user_id: settings.userId };
  if (settings.serviceTier !== undefined) body['service_tier'] = settings.serviceTier;
  for (const [key, value] of Object.entries(settings.extraBody ?? {})) {
    Object.defineProperty(body, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
}

function cacheOf(cache: AnthropicAdapterOptions['cache']): AnthropicCacheOptions | undefined {
  if (cache === true) return {};
  return cache === false ? undefined : cache;
}

function cacheControlOf(cache: AnthropicCacheOptions): Record<string, unknown> {
  return cache.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: cache.ttl };
}

/** `base`, or `base_2`, `base_3`... when a tool of the request already has that name. */
function freeName(request: ProviderRequest, base: string): string {
  const taken = new Set(request.tools.map((spec) => spec.name));
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  return name;
}
