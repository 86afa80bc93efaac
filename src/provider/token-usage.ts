import { ConfigurationError } from '../core/errors/configuration-error.js';

/** Fields of a {@link TokenUsage}; a count the provider did not report stays `undefined`. */
export interface TokenUsageInit {
  /** Prompt (input) tokens. */
  readonly inputTokens?: number | undefined;
  /** Completion (output) tokens. */
  readonly outputTokens?: number | undefined;
  /** Input tokens served from the provider's cache (a part of `inputTokens`). */
  readonly cachedTokens?: number | undefined;
  /** Input tokens written to the provider's cache (a part of `inputTokens`). */
  readonly cacheWriteTokens?: number | undefined;
  /** Output tokens the model spent reasoning (a part of `outputTokens`). */
  readonly reasoningTokens?: number | undefined;
}

/**
 * Token counts reported by a provider for one response or accumulated over an
 * evaluation. A value object carried by events and budgets, not an event itself:
 * two equal usages compare equal. Frozen.
 */
export class TokenUsage {
  /** Prompt (input) tokens, if reported. */
  readonly inputTokens: number | undefined;
  /** Completion (output) tokens, if reported. */
  readonly outputTokens: number | undefined;
  /** Cached input tokens (cache reads), if reported. */
  readonly cachedTokens: number | undefined;
  /** Input tokens written to the cache, if reported (Anthropic, Bedrock, the AI SDK's `cacheWrite`). */
  readonly cacheWriteTokens: number | undefined;
  /** Reasoning output tokens, if reported (already counted in `outputTokens`). */
  readonly reasoningTokens: number | undefined;

  constructor(init: TokenUsageInit = {}) {
    this.inputTokens = checkCount('inputTokens', init.inputTokens);
    this.outputTokens = checkCount('outputTokens', init.outputTokens);
    this.cachedTokens = checkCount('cachedTokens', init.cachedTokens);
    this.cacheWriteTokens = checkCount('cacheWriteTokens', init.cacheWriteTokens);
    this.reasoningTokens = checkCount('reasoningTokens', init.reasoningTokens);
    Object.freeze(this);
  }

  /**
   * Input plus output tokens (cache reads and writes are already part of the
   * input, reasoning tokens part of the output),
   * or `undefined` when neither was reported.
   */
  get totalTokens(): number | undefined {
    if (this.inputTokens === undefined && this.outputTokens === undefined) return undefined;
    return (this.inputTokens ?? 0) + (this.outputTokens ?? 0);
  }

  /**
   * Reads a provider's `usage` object: `input_tokens` or `prompt_tokens`,
   * `output_tokens` or `completion_tokens`, `cached_tokens` (top level or in
   * `input_tokens_details` / `prompt_tokens_details`) and `reasoning_tokens`
   * (top level or in `output_tokens_details` / `completion_tokens_details`).
   * Booleans, negatives and non-numbers count as absent, fractions are
   * truncated. Returns `undefined` when nothing usable is there.
   */
  static fromProviderUsage(usage: unknown): TokenUsage | undefined {
    if (typeof usage !== 'object' || usage === null) return undefined;
    const record = usage as Record<string, unknown>;
    const detail = (key: string, field: string): number | undefined => {
      const nested = record[key];
      return typeof nested === 'object' && nested !== null
        ? readCount((nested as Record<string, unknown>)[field])
        : undefined;
    };
    const inputTokens = readCount(record['input_tokens']) ?? readCount(record['prompt_tokens']);
    const outputTokens =
      readCount(record['output_tokens']) ?? readCount(record['completion_tokens']);
    const cachedTokens =
      readCount(record['cached_tokens']) ??
      detail('input_tokens_details', 'cached_tokens') ??
      detail('prompt_tokens_details', 'cached_tokens');
    const reasoningTokens =
      readCount(record['reasoning_tokens']) ??
      detail('output_tokens_details', 'reasoning_tokens') ??
      detail('completion_tokens_details', 'reasoning_tokens');
    if (inputTokens === undefined && outputTokens === undefined && cachedTokens === undefined) {
      return undefined;
    }
    return new TokenUsage({ inputTokens, outputTokens, cachedTokens, reasoningTokens });
  }

  /** The sum of two usages; a count stays `undefined` only when both sides lack it. */
  plus(other: TokenUsage): TokenUsage {
    return new TokenUsage({
      inputTokens: addCounts(this.inputTokens, other.inputTokens),
      outputTokens: addCounts(this.outputTokens, other.outputTokens),
      cachedTokens: addCounts(this.cachedTokens, other.cachedTokens),
      cacheWriteTokens: addCounts(this.cacheWriteTokens, other.cacheWriteTokens),
      reasoningTokens: addCounts(this.reasoningTokens, other.reasoningTokens),
    });
  }

  /** Plain data including `totalTokens`, with absent counts left out. */
  toJSON(): Record<string, number> {
    const json: Record<string, number> = {};
    if (this.inputTokens !== undefined) json['inputTokens'] = this.inputTokens;
    if (this.outputTokens !== undefined) json['outputTokens'] = this.outputTokens;
    if (this.cachedTokens !== undefined) json['cachedTokens'] = this.cachedTokens;
    if (this.cacheWriteTokens !== undefined) json['cacheWriteTokens'] = this.cacheWriteTokens;
    if (this.reasoningTokens !== undefined) json['reasoningTokens'] = this.reasoningTokens;
    const total = this.totalTokens;
    if (total !== undefined) json['totalTokens'] = total;
    return json;
  }
}

function checkCount(field: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ConfigurationError({
      subject: `TokenUsage.${field}`,
      problem: `expected a non-negative integer or undefined, got ${String(value)}.`,
      fix: 'Use TokenUsage.fromProviderUsage() to read raw provider counts, which drops unusable values.',
    });
  }
  return value;
}

function readCount(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
  return Math.trunc(value);
}

function addCounts(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
}
