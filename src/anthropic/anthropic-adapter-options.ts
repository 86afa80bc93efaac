import type { ClientOptions } from '@anthropic-ai/sdk';
import type { ServiceIdentifier } from 'inversify';

import type { RetryOptions } from '../provider/index.js';

/** `max_tokens` sent when {@link AnthropicAdapterOptions.maxTokens} is not set. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

/** Sampling settings of an {@link AnthropicAdapter}, sent with every request. */
export interface AnthropicModelSettings {
  /** `temperature` (0-1); not allowed together with extended thinking. */
  readonly temperature?: number | undefined;
  /** `top_p`, nucleus sampling mass. */
  readonly topP?: number | undefined;
  /** `top_k`: sample only from the k likeliest tokens. */
  readonly topK?: number | undefined;
  /** `stop_sequences`: texts that end the turn (`stop_reason: stop_sequence`). */
  readonly stopSequences?: readonly string[] | undefined;
  /** `metadata.user_id`: an opaque id of your end user (no personal data). */
  readonly userId?: string | undefined;
  /** `service_tier`. */
  readonly serviceTier?: 'auto' | 'standard_only' | undefined;
  /** Further request fields, merged last into the body as they are. */
  readonly extraBody?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Extended thinking: `thinking: { type: 'enabled', budget_tokens }`. The
 * budget must be at least 1 024 and below `maxTokens`. Thinking and
 * redacted-thinking blocks are carried back unchanged on the next turn.
 */
export interface AnthropicThinking {
  /** Tokens the model may think with before it answers. */
  readonly budgetTokens: number;
  /** `summarized` or `omitted` thinking text, where the model supports the choice. */
  readonly display?: 'summarized' | 'omitted' | undefined;
}

/**
 * Prompt caching: a `cache_control: { type: 'ephemeral' }` breakpoint after
 * the system prompt and after the last tool, so both are read from the cache
 * on later turns (counted in `TokenUsage.cachedTokens`).
 */
export interface AnthropicCacheOptions {
  /** Mark the system prompt (the rendered prompt). Default `true`. */
  readonly system?: boolean | undefined;
  /** Mark the tool list (a breakpoint on its last entry). Default `true`. */
  readonly tools?: boolean | undefined;
  /** How long entries live: `5m` (the API's default) or `1h`. */
  readonly ttl?: '5m' | '1h' | undefined;
}

/**
 * How a prompt's structured output is asked for:
 * - `json_schema` (default): `output_config.format` with the output schema; the
 *   model is constrained to it and answers with text, so tools and output work
 *   in the same turn as for a free-text prompt.
 * - `tool`: a forced output tool (`final_answer`, renamed if a tool of the
 *   prompt has that name) whose input is the answer, for models without
 *   structured outputs; `tool_choice` becomes `any` (`auto` with thinking,
 *   which forbids forced tools).
 * - `text`: no schema sent; the answer's JSON is read from its text.
 */
export type AnthropicStructuredOutput = 'json_schema' | 'tool' | 'text';

/** Options of an {@link AnthropicAdapter}; bind them under the {@link AnthropicAdapterOptions} token. */
export interface AnthropicAdapterOptions {
  /** The model id, e.g. `claude-sonnet-4-6`. */
  readonly model: string;
  /**
   * `max_tokens`, required by the API: the most tokens one response may
   * generate, thinking included. Default {@link DEFAULT_ANTHROPIC_MAX_TOKENS} (4 096).
   */
  readonly maxTokens?: number | undefined;
  /** Sampling settings sent with every request. */
  readonly modelSettings?: AnthropicModelSettings | undefined;
  /** Extended thinking; off when absent. */
  readonly thinking?: AnthropicThinking | undefined;
  /** Prompt-caching breakpoints; `true` marks system prompt and tools. Off by default. */
  readonly cache?: AnthropicCacheOptions | boolean | undefined;
  /**
   * Send `strict: true` for tools whose params class fits the strict profile
   * (`toJsonSchema(cls, 'openai-strict').strictCompatible`: every field
   * required, optional ones nullable, `additionalProperties: false`). Default
   * `false`: tools get the standard draft 2020-12 schema and no `strict`.
   */
  readonly strictTools?: boolean | undefined;
  /** `disable_parallel_tool_use` is sent when `false`. Default `true`. */
  readonly parallelToolCalls?: boolean | undefined;
  /** How structured output is asked for; `json_schema` by default. */
  readonly structuredOutput?: AnthropicStructuredOutput | undefined;
  /** How many times a `pause_turn` (a long server-tool turn) is continued. Default 8. */
  readonly maxPauseContinuations?: number | undefined;
  /** Retries of failed requests (the SDK's own retries are always off). */
  readonly retry?: RetryOptions | undefined;
  /**
   * Per-attempt HTTP timeout in milliseconds; default 600 000. Always sent, which
   * also turns off the SDK's refusal of non-streamed requests with a large
   * `max_tokens` ("Streaming is required for operations that may take longer
   * than 10 minutes"). The evaluation's deadline still applies.
   */
  readonly timeoutMs?: number | undefined;
  /** Used to build a client when none is bound to `Anthropic` in the container. */
  readonly client?: ClientOptions | undefined;
}

/**
 * Token of the {@link AnthropicAdapterOptions} in the container:
 * `container.bind(AnthropicAdapterOptions).toConstantValue({ model: 'claude-sonnet-4-6' })`.
 */
export const AnthropicAdapterOptions: ServiceIdentifier<AnthropicAdapterOptions> = Symbol.for(
  'affordance.anthropic.adapter-options',
);
