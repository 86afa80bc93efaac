import { type FinishReason, isPlainObject, TokenUsage } from '../../provider/index.js';

/** A usage's counts as the AI SDK reports them (the fields of a {@link TokenUsage}). */
export interface AiSdkUsageCounts {
  readonly inputTokens: number | undefined;
  readonly outputTokens: number | undefined;
  readonly cachedTokens: number | undefined;
  readonly cacheWriteTokens: number | undefined;
  readonly reasoningTokens: number | undefined;
}

/**
 * Reads an AI SDK usage: the v3 form (`inputTokens: { total, cacheRead, cacheWrite }`,
 * `outputTokens: { total, reasoning }`) or the flat v2 form (`inputTokens`,
 * `outputTokens`, `cachedInputTokens`, `reasoningTokens`). Counts that are not
 * non-negative numbers count as absent.
 */
export function usageCounts(usage: unknown): AiSdkUsageCounts {
  const record = isPlainObject(usage) ? usage : {};
  const input = record['inputTokens'];
  const output = record['outputTokens'];
  if (isPlainObject(input) || isPlainObject(output)) {
    const inputs = isPlainObject(input) ? input : {};
    const outputs = isPlainObject(output) ? output : {};
    return {
      inputTokens: count(inputs['total']),
      outputTokens: count(outputs['total']),
      cachedTokens: count(inputs['cacheRead']),
      cacheWriteTokens: count(inputs['cacheWrite']),
      reasoningTokens: count(outputs['reasoning']),
    };
  }
  return {
    inputTokens: count(input),
    outputTokens: count(output),
    cachedTokens: count(record['cachedInputTokens']),
    cacheWriteTokens: undefined,
    reasoningTokens: count(record['reasoningTokens']),
  };
}

/** The {@link TokenUsage} of an AI SDK usage, or `undefined` when it reports no count. */
export function tokenUsageOf(counts: AiSdkUsageCounts): TokenUsage | undefined {
  const { inputTokens, outputTokens, cachedTokens } = counts;
  if (inputTokens === undefined && outputTokens === undefined && cachedTokens === undefined) {
    return undefined;
  }
  return new TokenUsage(counts);
}

/** The neutral finish reason of an AI SDK one: v3 `{ unified, raw }` or a v2 string. */
export function finishReasonOf(reason: unknown): FinishReason | undefined {
  const unified = isPlainObject(reason) ? reason['unified'] : reason;
  switch (unified) {
    case undefined:
      return undefined;
    case 'stop':
      return 'stop';
    case 'tool-calls':
      return 'tool_calls';
    case 'length':
      return 'length';
    default:
      return 'other';
  }
}

/** The provider's own finish reason (`STOP`, `tool_calls`...), where the AI SDK passes it on. */
export function rawFinishReasonOf(reason: unknown): unknown {
  return isPlainObject(reason) ? (reason['raw'] ?? reason['unified']) : reason;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? Math.trunc(value)
    : undefined;
}
