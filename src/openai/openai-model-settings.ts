/**
 * Model settings of an {@link OpenAIAdapter}, written once for both APIs:
 * `maxOutputTokens` becomes `max_output_tokens` (Responses) or
 * `max_completion_tokens` (Chat Completions), `reasoning.effort` becomes
 * `reasoning.effort` or `reasoning_effort`, and so on. Anything else goes in
 * `extraBody`, merged into the request body as is.
 */
export interface OpenAIModelSettings {
  /** Most tokens the model may generate per request (reasoning included). */
  readonly maxOutputTokens?: number | undefined;
  /** Sampling temperature (0-2); reasoning models reject it. */
  readonly temperature?: number | undefined;
  /** Nucleus sampling mass. */
  readonly topP?: number | undefined;
  /** Reasoning effort and (Responses only) summary mode, for reasoning models. */
  readonly reasoning?:
    | {
        readonly effort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | undefined;
        readonly summary?: 'auto' | 'concise' | 'detailed' | undefined;
      }
    | undefined;
  /**
   * Whether OpenAI stores responses. With `false` (Responses), the adapter
   * asks for `reasoning.encrypted_content` so reasoning items can be sent back.
   */
  readonly store?: boolean | undefined;
  /** Output verbosity (`text.verbosity` or `verbosity`). */
  readonly verbosity?: 'low' | 'medium' | 'high' | undefined;
  /** `service_tier`. */
  readonly serviceTier?: 'auto' | 'default' | 'flex' | 'scale' | 'priority' | undefined;
  /** `safety_identifier`: a stable, hashed id of your end user. */
  readonly safetyIdentifier?: string | undefined;
  /** `prompt_cache_key`. */
  readonly promptCacheKey?: string | undefined;
  /** `metadata` (up to 16 string pairs). */
  readonly metadata?: Readonly<Record<string, string>> | undefined;
  /** Further request fields, merged last into the body (e.g. `{ truncation: 'auto' }`). */
  readonly extraBody?: Readonly<Record<string, unknown>> | undefined;
}
