import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';

/** What went wrong with one attempt, as {@link classifyOpenAIError} reads it. */
export interface OpenAIFailure {
  /** Whether another attempt may succeed. */
  readonly retryable: boolean;
  /** Whether the request was aborted (deadline or cancellation); never retried. */
  readonly aborted: boolean;
  /** Short description for messages: `429 rate_limit_exceeded`, `connection error`... */
  readonly reason: string;
  /** The HTTP status, if a response arrived. */
  readonly status: number | undefined;
  /** The provider's own message, if it sent one. */
  readonly providerMessage: string | undefined;
  /** The wait the server asked for (`retry-after-ms` / `retry-after`), in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** Diagnostic fields (status, code, type, param, request id) for `providerPayload`. */
  readonly details: Readonly<Record<string, unknown>>;
}

const retryableStatuses = new Set([408, 409, 429]);
/** Error codes no later attempt can fix, whatever the status or `x-should-retry` say. */
const terminalCodes = new Set(['insufficient_quota']);

/**
 * Reads an error thrown by the OpenAI SDK (or by reading its response): HTTP
 * 408, 409, 429 and 5xx, connection errors, timeouts and unreadable bodies
 * are retryable (an `x-should-retry` header overrides the status rule);
 * aborts, other 4xx and a 429 `insufficient_quota` (the account has no quota
 * left; waiting does not bring it back) are not.
 */
export function classifyOpenAIError(error: unknown, now: number): OpenAIFailure {
  if (error instanceof APIUserAbortError) {
    return failure({ aborted: true, reason: 'aborted' });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return failure({ retryable: true, reason: 'timeout' });
  }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return failure({ retryable: true, reason: `connection error${cause}` });
  }
  if (error instanceof APIError) return apiFailure(error as ApiErrorFields, now);
  // The SDK parses the body itself: a body that is not JSON, or a connection
  // dropped while it was read, surfaces as a plain SyntaxError or TypeError.
  // Matched by name: these errors may come from another realm (undici, a test VM) than ours.
  const name = (error as { name?: unknown } | null)?.name;
  const text = (error as { message?: unknown } | null)?.message;
  if (name === 'SyntaxError' || name === 'TypeError') {
    return failure({ retryable: true, reason: `unreadable response body (${String(text)})` });
  }
  return failure({ reason: typeof text === 'string' ? text : String(error) });
}

/** The fields of the SDK's `APIError` this module reads. */
interface ApiErrorFields {
  readonly status: number | undefined;
  readonly headers: Headers | undefined;
  readonly error: unknown;
  readonly code: string | null | undefined;
  readonly type: string | undefined;
  readonly param: string | null | undefined;
  readonly requestID: string | null | undefined;
}

function apiFailure(error: ApiErrorFields, now: number): OpenAIFailure {
  const status = error.status;
  const body = (error.error ?? {}) as { message?: unknown };
  const providerMessage = typeof body.message === 'string' ? body.message : undefined;
  const code = typeof error.code === 'string' ? error.code : undefined;
  const shouldRetry = error.headers?.get('x-should-retry');
  let retryable = status !== undefined && (retryableStatuses.has(status) || status >= 500);
  if (shouldRetry === 'true') retryable = true;
  if (shouldRetry === 'false') retryable = false;
  if (code !== undefined && terminalCodes.has(code)) retryable = false;
  return failure({
    retryable,
    reason: [status === undefined ? 'API error' : String(status), code].filter(Boolean).join(' '),
    status,
    providerMessage,
    retryAfterMs: retryAfter(error.headers, now),
    details: {
      status,
      code: error.code ?? undefined,
      type: error.type ?? undefined,
      param: error.param ?? undefined,
      requestId: error.requestID ?? undefined,
      message: providerMessage,
    },
  });
}

/** `retry-after-ms`, else `retry-after` in seconds or as an HTTP date; `undefined` when absent or unreadable. */
function retryAfter(headers: Headers | undefined, now: number): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (value === undefined || value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function failure(fields: Partial<OpenAIFailure> & { reason: string }): OpenAIFailure {
  return {
    retryable: false,
    aborted: false,
    status: undefined,
    providerMessage: undefined,
    retryAfterMs: undefined,
    details: {},
    ...fields,
  };
}
