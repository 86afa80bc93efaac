import {
  isPlainObject,
  type RequestFailure,
  requestFailure,
  retryAfterMs,
} from '../../provider/index.js';

/** How `@ai-sdk/provider` marks an `APICallError` (what `APICallError.isInstance` checks, across copies of the package). */
const apiCallErrorMarker = Symbol.for('vercel.ai.error.AI_APICallError');
/** Error codes of a refused, reset or timed-out connection, anywhere in the cause chain. */
const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The fields of an `APICallError` this module reads. */
interface ApiCallErrorFields {
  readonly message: string;
  readonly url?: string;
  readonly statusCode?: number;
  readonly responseHeaders?: Record<string, string>;
  readonly responseBody?: string;
  readonly isRetryable: boolean;
  readonly data?: unknown;
  readonly cause?: unknown;
}

/**
 * Reads an error a provider package threw (or its stream carried): an
 * `APICallError` is retried when the package says so (`isRetryable`: 408,
 * 409, 429, 5xx and connection failures), waiting what the response asks
 * (`retry-after-ms`, `retry-after`, or a `google.rpc.RetryInfo` delay in the
 * body as Gemini sends it); a connection refused or reset is retried whether
 * the package wrapped it or a raw `fetch failed` escaped; a stream cut off is
 * retried (only before its first part, see `streamWithRetries`); aborts are
 * not retried.
 */
export function classifyAiSdkError(error: unknown, now: number): RequestFailure {
  if (isAbort(error)) return requestFailure({ aborted: true, reason: 'aborted' });
  if (isApiCallError(error)) return apiFailure(error, now);
  const network = networkCause(error);
  if (network !== undefined) {
    return requestFailure({ retryable: true, reason: `connection error: ${network}` });
  }
  const name = (error as { name?: unknown } | null)?.name;
  const text = (error as { message?: unknown } | null)?.message;
  if (name === 'AiSdkStreamEndedError' || name === 'TypeError') {
    return requestFailure({ retryable: true, reason: `connection error: ${String(text)}` });
  }
  return requestFailure({ reason: typeof text === 'string' ? text : String(error) });
}

function isApiCallError(error: unknown): error is ApiCallErrorFields {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[apiCallErrorMarker] === true
  );
}

function isAbort(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'AbortError' || name === 'TimeoutError' || name === 'ResponseAborted';
}

function apiFailure(error: ApiCallErrorFields, now: number): RequestFailure {
  const status = error.statusCode;
  const body = bodyError(error);
  const headers = error.responseHeaders ?? {};
  const wait = retryAfterMs({ get: (name) => headers[name] ?? null }, now) ?? retryInfoDelay(body);
  // A body cut off while it was read fails with a `TypeError` (`terminated`) under the package's error.
  const network = networkCause(error.cause) ?? cutOffCause(error.cause);
  const code = body?.['status'] ?? body?.['type'] ?? body?.['code'];
  const reason =
    status === undefined || network !== undefined
      ? `connection error${network === undefined ? '' : `: ${network}`}`
      : [String(status), typeof code === 'string' ? code : undefined].filter(Boolean).join(' ');
  const message = body?.['message'];
  return requestFailure({
    retryable: error.isRetryable || network !== undefined,
    reason,
    status,
    providerMessage: typeof message === 'string' ? message : error.message,
    retryAfterMs: wait,
    details: {
      status,
      url: error.url,
      code: typeof code === 'string' || typeof code === 'number' ? code : undefined,
      message: typeof message === 'string' ? message : error.message,
      retryAfterMs: wait,
    },
  });
}

/** The `error` object of the response body (`{ error: { code, message, status, details } }`), if any. */
function bodyError(error: ApiCallErrorFields): Record<string, unknown> | undefined {
  let body: unknown = error.data;
  if (body === undefined && typeof error.responseBody === 'string') {
    try {
      body = JSON.parse(error.responseBody) as unknown;
    } catch {
      return undefined;
    }
  }
  if (!isPlainObject(body)) return undefined;
  const inner = body['error'];
  return isPlainObject(inner) ? inner : body;
}

/** The delay of a `google.rpc.RetryInfo` entry in `details` (`"retryDelay": "37s"`), in milliseconds. */
function retryInfoDelay(body: Record<string, unknown> | undefined): number | undefined {
  const details = body?.['details'];
  if (!Array.isArray(details)) return undefined;
  for (const detail of details as unknown[]) {
    if (!isPlainObject(detail)) continue;
    const type = detail['@type'];
    if (typeof type !== 'string' || !type.endsWith('google.rpc.RetryInfo')) continue;
    const delay = detail['retryDelay'];
    const match = typeof delay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(delay.trim()) : null;
    if (match?.[1] !== undefined) return Number(match[1]) * 1000;
  }
  return undefined;
}

/** The code of a network failure in `error`'s cause chain (a refused connection...), if any. */
function networkCause(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  for (let current = error; typeof current === 'object' && current !== null;) {
    if (seen.has(current)) break;
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && networkCodes.has(code)) return code;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors)) {
      for (const inner of errors as unknown[]) {
        const found = networkCause(inner);
        if (found !== undefined) return found;
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The message of a `TypeError` in `error`'s cause chain (how fetch reports a body cut off), if any. */
function cutOffCause(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  for (let current = error; current instanceof Error && !seen.has(current);) {
    seen.add(current);
    if (current.name === 'TypeError') return current.message;
    current = current.cause;
  }
  return undefined;
}

/** Advice for a request the provider rejected, naming what to check; `''` when there is none. */
export function aiSdkRejectionHint(failure: { readonly status: number | undefined }): string {
  switch (failure.status ?? 0) {
    case 401:
    case 403:
      return (
        'Fix: check the API key the provider package reads (its apiKey option or environment variable, e.g. ' +
        'GOOGLE_GENERATIVE_AI_API_KEY, MISTRAL_API_KEY, GROQ_API_KEY) and its access to the model.'
      );
    case 404:
      return 'Fix: check the model id and the provider package baseURL.';
    case 413:
      return 'Fix: the request is too large; shorten the prompt, the input or the tool results.';
    case 400:
    case 422:
      return 'Fix: correct the request (settings, provider options, tools or output schema) as the message says.';
    case 200:
      return (
        'Fix: the answer was not the JSON the provider package expects; check the provider package ' +
        'baseURL points at the provider API, not a web page or proxy.'
      );
    default:
      return '';
  }
}
