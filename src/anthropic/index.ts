/**
 * affordance/anthropic: the Anthropic adapter (Messages API, streaming
 * included) over the official `@anthropic-ai/sdk`, an optional peer
 * dependency. Core affordance never imports `@anthropic-ai/sdk`; only this
 * entry point does.
 * @packageDocumentation
 */
export { AnthropicAdapter } from './anthropic-adapter.js';
export {
  AnthropicAdapterOptions,
  type AnthropicCacheOptions,
  type AnthropicModelSettings,
  type AnthropicStructuredOutput,
  type AnthropicThinking,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
} from './anthropic-adapter-options.js';
