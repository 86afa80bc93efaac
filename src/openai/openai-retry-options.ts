/** What an {@link OpenAIAdapter} reports before it waits to retry a request. */
export interface OpenAIRetryEvent {
  /** The attempt that failed, from 1. */
  readonly attempt: number;
  /** How long the adapter waits before the next attempt, in milliseconds. */
  readonly delayMs: number;
  /** Why: `429`, `503`, `connection error`... */
  readonly reason: string;
  /** The error of the failed attempt. */
  readonly error: unknown;
}

/**
 * Retry policy of an {@link OpenAIAdapter}. Retried: HTTP 408, 409, 429, 5xx,
 * connection errors and timeouts, and JSON bodies cut short; never 400, 401,
 * 403, 404 or 422, a 429 `insufficient_quota` (no quota left), or a body that
 * is not JSON at all (a web page at a wrong `baseURL`). The wait is `retry-after-ms` or `retry-after` when the
 * server sends one, otherwise `initialDelayMs × 2^(attempt-1)` (capped at
 * `maxDelayMs`) minus up to `jitter` of it; a wait that would pass the
 * evaluation's deadline is not started.
 */
export interface OpenAIRetryOptions {
  /** Retries after the first attempt. Default 3; 0 turns retries off. */
  readonly maxRetries?: number | undefined;
  /** Wait before the first retry, in milliseconds. Default 500. */
  readonly initialDelayMs?: number | undefined;
  /** Longest computed wait, in milliseconds. Default 8 000. */
  readonly maxDelayMs?: number | undefined;
  /** Fraction of the wait removed at random (0-1), so clients do not retry in step. Default 0.25. */
  readonly jitter?: number | undefined;
  /** Longest server-requested wait (`retry-after`) honoured; longer ones give up at once. Default 60 000. */
  readonly maxRetryAfterMs?: number | undefined;
  /** Called before each wait, e.g. to log it. */
  readonly onRetry?: ((event: OpenAIRetryEvent) => void) | undefined;
}
