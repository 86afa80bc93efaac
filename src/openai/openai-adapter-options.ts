import type { ServiceIdentifier } from 'inversify';
import type { ClientOptions } from 'openai';

import type { OpenAIModelSettings } from './openai-model-settings.js';
import type { OpenAIRetryOptions } from './openai-retry-options.js';

/** Which OpenAI API an {@link OpenAIAdapter} speaks. */
export type OpenAIApi = 'responses' | 'chat';

/**
 * Where the rendered prompt goes: the Responses `instructions` field, or a
 * first `system` or `developer` message (Chat Completions has no `instructions`
 * and uses `system` then).
 */
export type OpenAIInstructionsRole = 'instructions' | 'system' | 'developer';

/** Options of an {@link OpenAIAdapter}; bind them under the {@link OpenAIAdapterOptions} token. */
export interface OpenAIAdapterOptions {
  /** The model id, e.g. `gpt-5-mini`. */
  readonly model: string;
  /** `responses` (default) or `chat` for Chat Completions (what most OpenAI-compatible servers speak). */
  readonly api?: OpenAIApi | undefined;
  /** Where the rendered prompt goes; `instructions` by default (`system` on Chat Completions). */
  readonly instructionsRole?: OpenAIInstructionsRole | undefined;
  /** Sampling, token and reasoning settings sent with every request. */
  readonly modelSettings?: OpenAIModelSettings | undefined;
  /** `parallel_tool_calls`, sent whenever tools are offered; `true` by default. */
  readonly parallelToolCalls?: boolean | undefined;
  /**
   * Send `strict: true` for tools whose params class fits OpenAI's strict mode
   * (`toJsonSchema(cls, 'openai-strict').strictCompatible`). Default `true`;
   * `false` sends every tool with the standard schema and `strict: false`.
   */
  readonly strictTools?: boolean | undefined;
  /**
   * How a prompt's structured output is asked for: `json_schema` (default)
   * sends the output schema; `text` sends none and parses the JSON from the
   * answer text, for servers without structured outputs.
   */
  readonly structuredOutput?: 'json_schema' | 'text' | undefined;
  /** Retries of failed requests (the SDK's own retries are always off). */
  readonly retry?: OpenAIRetryOptions | undefined;
  /** Per-attempt HTTP timeout in milliseconds; the evaluation's deadline still applies. Default 600 000. */
  readonly timeoutMs?: number | undefined;
  /** Used to build a client when none is bound to `OpenAI` in the container. */
  readonly client?: ClientOptions | undefined;
}

/**
 * Token of the {@link OpenAIAdapterOptions} in the container:
 * `container.bind(OpenAIAdapterOptions).toConstantValue({ model: 'gpt-5-mini' })`.
 */
export const OpenAIAdapterOptions: ServiceIdentifier<OpenAIAdapterOptions> = Symbol.for(
  'affordance.openai.adapter-options',
);
