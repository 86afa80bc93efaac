/**
 * What went wrong with one attempt of a provider request, as an adapter's
 * `classify` function reads the error its SDK threw (see {@link RetryContext}).
 */
export interface RequestFailure {
  /** Whether another attempt may succeed. */
  readonly retryable: boolean;
  /** Whether the request was aborted (deadline or cancellation); never retried. */
  readonly aborted: boolean;
  /** Short description for messages: `429 rate_limit_error`, `connection error`... */
  readonly reason: string;
  /** The HTTP status, if a response arrived. */
  readonly status: number | undefined;
  /** The provider's own message, if it sent one. */
  readonly providerMessage: string | undefined;
  /** The wait the server asked for (`retry-after-ms` / `retry-after`), in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** Diagnostic fields (status, code, type, request id...) for `providerPayload`. */
  readonly details: Readonly<Record<string, unknown>>;
}

/** A {@link RequestFailure} from the fields given: not retryable, not aborted, nothing else known by default. */
export function requestFailure(
  fields: Partial<RequestFailure> & { readonly reason: string },
): RequestFailure {
  return {
    retryable: fields.retryable ?? false,
    aborted: fields.aborted ?? false,
    reason: fields.reason,
    status: fields.status,
    providerMessage: fields.providerMessage,
    retryAfterMs: fields.retryAfterMs,
    details: fields.details ?? {},
  };
}

/** The few methods of a `Headers` object {@link retryAfterMs} reads. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * The wait a response asks for: `retry-after-ms`, else `retry-after` in
 * seconds or as an HTTP date (measured from `now`); `undefined` when absent or
 * unreadable.
 */
export function retryAfterMs(headers: HeaderReader | undefined, now: number): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (value === undefined || value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
