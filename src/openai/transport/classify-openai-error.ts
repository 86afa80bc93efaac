import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';

import { type RequestFailure, requestFailure, retryAfterMs } from '../../provider/index.js';

/** What went wrong with one attempt, as {@link classifyOpenAIError} reads it. */
export type OpenAIFailure = RequestFailure;

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
    return requestFailure({ aborted: true, reason: 'aborted' });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return requestFailure({ retryable: true, reason: 'timeout' });
  }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return requestFailure({ retryable: true, reason: `connection error${cause}` });
  }
  if (error instanceof APIError) return apiFailure(error as ApiErrorFields, now);
  // The SDK parses the body itself: a body that is not JSON, or a connection
  // dropped while it was read, surfaces as a plain SyntaxError or TypeError.
  // Matched by name: these errors may come from another realm (undici, a test VM) than ours.
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
  return requestFailure({
    retryable,
    reason: [status === undefined ? 'API error' : String(status), code].filter(Boolean).join(' '),
    status,
    providerMessage,
    retryAfterMs: retryAfterMs(error.headers, now),
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

/** Advice for a request OpenAI rejected, naming what to check; `''` when there is none. */
export function openAIRejectionHint(failure: RequestFailure): string {
  if (failure.details['code'] === 'insufficient_quota') {
    return (
      'The account or project has no quota left, and retrying does not bring it back: ' +
      'check the plan and billing details (add credit or raise the limit), or use another key.'
    );
  }
  switch (failure.status ?? 0) {
    case 401:
      return 'Check the API key (OPENAI_API_KEY or the client apiKey).';
    case 403:
      return 'The key lacks access to this model or feature; check the project and organization.';
    case 404:
      return 'Check the model id and the client baseURL.';
    case 400:
    case 422: {
      const param = failure.details['param'];
      return typeof param === 'string'
        ? `Fix the request field '${param}' (model settings, tools or output schema).`
        : 'Fix the request (model settings, tools or output schema).';
    }
    default:
      return '';
  }
}
