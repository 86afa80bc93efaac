import { PromptEvaluationError } from '../../core/errors/prompt-evaluation-error.js';

/**
 * The kinds of provider failure another provider may not share, and so the
 * ones a {@link FallbackAdapter} moves on after (by default all of them):
 *
 * - `rate-limit`: HTTP 429, or an error typed as a rate limit;
 * - `overloaded`: HTTP 503 or 529, or an error typed as overloaded;
 * - `timeout`: HTTP 408 or 504, or the client's own timeout;
 * - `server-error`: any other 5xx, or an error typed as a server error;
 * - `connection`: no answer at all (connection refused or reset, name not found, `fetch failed`).
 */
export type ProviderFailureKind =
  'rate-limit' | 'overloaded' | 'timeout' | 'server-error' | 'connection';

/** Every {@link ProviderFailureKind}: what a {@link FallbackAdapter} falls back on by default. */
export const PROVIDER_FAILURE_KINDS: readonly ProviderFailureKind[] = Object.freeze([
  'rate-limit',
  'overloaded',
  'timeout',
  'server-error',
  'connection',
]);

/** Error codes of Node's network stack and undici that mean no answer came. */
const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Provider error types and codes (OpenAI, Anthropic, and the AI SDK's names) by kind. */
const typedKinds: ReadonlyMap<string, ProviderFailureKind> = new Map([
  ['rate_limit_error', 'rate-limit'],
  ['rate_limit_exceeded', 'rate-limit'],
  ['overloaded_error', 'overloaded'],
  ['server_error', 'server-error'],
  ['api_error', 'server-error'],
  ['timeout_error', 'timeout'],
]);

/** How deep {@link providerFailureKind} follows `cause` links. */
const MAX_CAUSES = 6;

/**
 * Reads what kind of provider failure `error` is, or `undefined` when it is
 * none of the {@link ProviderFailureKind}s (a rejected request, a bad answer,
 * a cancellation). It reads the error the adapters of this package throw (a
 * `PromptEvaluationError` whose `providerPayload` holds the HTTP `status` and
 * the provider's error `type` or `code`, with the SDK's error as `cause`) and,
 * structurally, any error with an HTTP `status`, a network `code` or an SDK
 * connection error in its `cause` chain, so an adapter written elsewhere is read too.
 */
export function providerFailureKind(error: unknown): ProviderFailureKind | undefined {
  let current: unknown = error;
  for (
    let depth = 0;
    depth < MAX_CAUSES && typeof current === 'object' && current !== null;
    depth++
  ) {
    const kind = kindOf(current as Record<string, unknown>);
    if (kind !== undefined) return kind;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The kind one error of the chain shows by itself. */
function kindOf(error: Record<string, unknown>): ProviderFailureKind | undefined {
  const payload = PromptEvaluationError.is(error) ? error.providerPayload : undefined;
  const fields = [
    error,
    record(payload),
    record(record(payload)?.['error']),
    record(error['error']),
  ];
  for (const field of fields) {
    const status = field?.['status'] ?? field?.['statusCode'];
    if (typeof status === 'number') {
      const byStatus = kindOfStatus(status);
      if (byStatus !== undefined) return byStatus;
    }
  }
  for (const field of fields) {
    for (const key of ['type', 'code']) {
      const value = field?.[key];
      const typed = typeof value === 'string' ? typedKinds.get(value) : undefined;
      if (typed !== undefined) return typed;
    }
  }
  const code = error['code'];
  if (typeof code === 'string' && connectionCodes.has(code)) return 'connection';
  const name = error['name'];
  if (name === 'APIConnectionTimeoutError' || name === 'TimeoutError') return 'timeout';
  if (name === 'APIConnectionError') return 'connection';
  if (name === 'TypeError' && error['message'] === 'fetch failed') return 'connection';
  return undefined;
}

function kindOfStatus(status: number): ProviderFailureKind | undefined {
  if (status === 429) return 'rate-limit';
  if (status === 503 || status === 529) return 'overloaded';
  if (status === 408 || status === 504) return 'timeout';
  if (status >= 500 && status <= 599) return 'server-error';
  return undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}
