/** What an adapter reports before it waits to retry a request (see {@link RetryOptions.onRetry}). */
export interface RetryEvent {
  /** The attempt that failed, from 1. */
  readonly attempt: number;
  /** How long the adapter waits before the next attempt, in milliseconds. */
  readonly delayMs: number;
  /** Why: `429`, `529 overloaded_error`, `connection error`... */
  readonly reason: string;
  /** The error of the failed attempt, scrubbed of API keys. */
  readonly error: unknown;
}

/**
 * Retry policy of a request sent through {@link sendWithRetries}. Which
 * failures are retried is the adapter's `classify` decision; this says how
 * often and how long to wait. The wait is the server's `retry-after-ms` or
 * `retry-after` when it sends one, otherwise `initialDelayMs × 2^(attempt-1)`
 * (capped at `maxDelayMs`) minus up to `jitter` of it; a wait that would pass
 * the evaluation's deadline is not started.
 */
export interface RetryOptions {
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
  readonly onRetry?: ((event: RetryEvent) => void) | undefined;
}

/**
 * Checks the numbers of a retry policy, reporting the first bad one through
 * `problem(subject, what, fix)` (an adapter's options check, which throws),
 * with `subject` such as `retry.jitter`.
 */
export function checkRetryOptions(
  retry: RetryOptions | undefined,
  problem: (subject: string, what: string, fix: string) => never,
): void {
  for (const key of ['maxRetries', 'initialDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
    const value = retry?.[key];
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
      problem(
        `retry.${key}`,
        `must be a non-negative number, got ${String(value)}.`,
        'Pass a number of at least 0, or leave it out.',
      );
    }
  }
  const jitter = retry?.jitter;
  if (jitter !== undefined && !(jitter >= 0 && jitter <= 1)) {
    problem(
      'retry.jitter',
      `must be between 0 and 1, got ${String(jitter)}.`,
      'Pass a fraction such as 0.25.',
    );
  }
}
