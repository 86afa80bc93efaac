import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';

import { type RequestFailure, requestFailure, retryAfterMs } from '../../provider/index.js';

/** Statuses another attempt may fix: timeout, conflict, rate limit, overloaded (529) and every other 5xx. */
const retryableStatuses = new Set([408, 409, 429]);
/** Statuses never retried, whatever `x-should-retry` says: the request itself is wrong. */
const terminalStatuses = new Set([400, 401, 402, 403, 404, 413, 422]);
/** Error types of a mid-stream `error` event (no status) another attempt may fix. */
const retryableTypes = new Set([
  'overloaded_error',
  'api_error',
  'rate_limit_error',
  'timeout_error',
]);

/**
 * Reads an error thrown by the Anthropic SDK (or by reading its response):
 * 408, 409, 429, 529 `overloaded_error` and other 5xx, connection errors,
 * timeouts, unreadable bodies and mid-stream `overloaded_error` / `api_error`
 * events are retryable (an `x-should-retry` header overrides the status rule
 * except for 400, 401, 402, 403, 404, 413 and 422, never retried); aborts are not.
 */
export function classifyAnthropicError(error: unknown, now: number): RequestFailure {
  if (error instanceof APIUserAbortError)
    return requestFailure({ aborted: true, reason: 'aborted' });
  if (error instanceof APIConnectionTimeoutError) {
    return requestFailure({ retryable: true, reason: 'timeout' });
  }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return requestFailure({ retryable: true, reason: `connection error${cause}` });
  }
  if (error instanceof APIError) return apiFailure(error as ApiErrorFields, now);
  // Matched by name: a body that is not JSON, or a connection dropped while it was read.
  const name = (error as { name?: unknown } | null)?.name;
  const text = (error as { message?: unknown } | null)?.message;
  if (name === 'SyntaxError' || name === 'TypeError') {
    return requestFailure({
      retryable: true,
      reason: `unreadable response body (${String(text)})`,
    });
  }
  return requestFailure({ reason: typeof text === 'string' ? text : String(error) });
}

/** The fields of the SDK's `APIError` this module reads. */
interface ApiErrorFields {
  readonly status: number | undefined;
  readonly headers: Headers | undefined;
  readonly type: string | null;
  readonly apiMessage: string | null;
  readonly errorCode: string | null;
  readonly requestID: string | null | undefined;
}

function apiFailure(error: ApiErrorFields, now: number): RequestFailure {
  const status = error.status;
  const type = error.type ?? undefined;
  const providerMessage = error.apiMessage ?? undefined;
  let retryable =
    status === undefined
      ? type !== undefined && retryableTypes.has(type)
      : retryableStatuses.has(status) || status >= 500;
  const shouldRetry = error.headers?.get('x-should-retry');
  if (status === undefined || !terminalStatuses.has(status)) {
    if (shouldRetry === 'true') retryable = true;
    if (shouldRetry === 'false') retryable = false;
  }
  return requestFailure({
    retryable,
    reason: [status === undefined ? 'API error' : String(status), type].filter(Boolean).join(' '),
    status,
    providerMessage,
    retryAfterMs: retryAfterMs(error.headers, now),
    details: {
      status,
      type,
      errorCode: error.errorCode ?? undefined,
      requestId: error.requestID ?? undefined,
      message: providerMessage,
    },
  });
}

/** Advice for a request Anthropic rejected, naming what to check; `''` when there is none. */
export function anthropicRejectionHint(failure: RequestFailure): string {
  switch (failure.status ?? 0) {
    case 401:
      return 'Fix: check the API key (ANTHROPIC_API_KEY or the client apiKey).';
    case 402:
      return 'Fix: the account has no credit left; check the plan and billing details, or use another key.';
    case 403:
      return 'Fix: the key lacks access to this model or feature; check the workspace and its permissions.';
    case 404:
      return 'Fix: check the model id (AnthropicAdapterOptions.model) and the client baseURL.';
    case 413:
      return 'Fix: the request is too large; shorten the prompt, the input or the tool results.';
    case 400:
    case 422:
      return 'Fix: correct the request (model settings, thinking, tools or output schema) as the message says.';
    default:
      return '';
  }
}
