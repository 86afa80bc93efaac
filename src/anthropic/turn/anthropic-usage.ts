import { TokenUsage } from '../../provider/index.js';

/**
 * A Messages API `usage` as a {@link TokenUsage}: Anthropic counts cache
 * reads (`cache_read_input_tokens`) and cache writes
 * (`cache_creation_input_tokens`) apart from `input_tokens`, so the input is
 * their sum, `cachedTokens` the cache reads and `cacheWriteTokens` the cache
 * writes. `undefined` when nothing is reported.
 */
export function anthropicUsage(usage: unknown): TokenUsage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const record = usage as Record<string, unknown>;
  const input = count(record['input_tokens']);
  const created = count(record['cache_creation_input_tokens']);
  const read = count(record['cache_read_input_tokens']);
  const output = count(record['output_tokens']);
  if (input === undefined && created === undefined && read === undefined && output === undefined) {
    return undefined;
  }
  const anyInput = input !== undefined || created !== undefined || read !== undefined;
  return new TokenUsage({
    inputTokens: anyInput ? (input ?? 0) + (created ?? 0) + (read ?? 0) : undefined,
    outputTokens: output,
    cachedTokens: read,
    cacheWriteTokens: created,
  });
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? Math.trunc(value)
    : undefined;
}
