import type { RetryEvent, RetryOptions } from '../provider/index.js';

/** What an {@link OpenAIAdapter} reports before it waits to retry a request (the seam's `RetryEvent`). */
export type OpenAIRetryEvent = RetryEvent;

/**
 * Retry policy of an {@link OpenAIAdapter} (the seam's `RetryOptions`).
 * Retried: HTTP 408, 409, 429, 5xx, connection errors and timeouts, and JSON
 * bodies cut short; never 400, 401, 403, 404 or 422, a 429
 * `insufficient_quota` (no quota left), or a body that is not JSON at all (a
 * web page at a wrong `baseURL`). The wait is `retry-after-ms` or
 * `retry-after` when the server sends one, otherwise
 * `initialDelayMs × 2^(attempt-1)` (capped at `maxDelayMs`) minus up to
 * `jitter` of it; a wait that would pass the evaluation's deadline is not started.
 */
export type OpenAIRetryOptions = RetryOptions;
