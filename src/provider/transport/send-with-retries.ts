import type { Clock } from '../../core/clock.js';
import { PromptEvaluationError } from '../../core/errors/prompt-evaluation-error.js';
import type { RequestDeadline } from '../provider-request.js';
import type { RequestFailure } from './request-failure.js';
import type { RetryOptions } from './retry-options.js';
import type { SecretRedactor } from './secret-redactor.js';

/**
 * Throw it from an attempt whose response arrived but says the provider failed
 * in a way another attempt may fix (an OpenAI `failed` response with
 * `server_error`, an Anthropic `overloaded_error` event): {@link sendWithRetries}
 * retries it like a retryable status, and throws `final` when no retry is left.
 */
export class RetryableResponseError extends Error {
  /**
   * @param reason short description for messages and `onRetry`.
   * @param final the error to throw when no retry is left.
   */
  constructor(
    readonly reason: string,
    readonly final: PromptEvaluationError,
  ) {
    super(final.message);
  }
}

/**
 * What {@link sendWithRetries} needs besides the attempt itself: who is asked
 * (for messages such as `OpenAI rejected the Responses request (401)`), the
 * request's signal, deadline and clock, the retry policy, how to scrub keys,
 * and the adapter's reading of its SDK's errors.
 */
export interface RetryContext {
  /** The provider, for messages: `OpenAI`, `Anthropic`. */
  readonly provider: string;
  /** The API, for messages: `Responses`, `Messages`. */
  readonly api: string;
  /** `ns/key` of the prompt, for error messages. */
  readonly prompt: string;
  /** The request's signal (deadline and cancellation). */
  readonly signal: AbortSignal;
  /** The evaluation's deadline: no wait is started that would pass it. */
  readonly deadline: RequestDeadline | undefined;
  /** The runtime's clock: waits run on it. */
  readonly clock: Clock;
  /** How often and how long to retry. */
  readonly retry: RetryOptions | undefined;
  /** Scrubs API keys from every error of an attempt before it is classified, reported or thrown. */
  readonly redactor: SecretRedactor;
  /** Reads an error an attempt threw (already scrubbed): retryable or not, why, the server's wait. */
  classify(error: unknown, now: number): RequestFailure;
  /** Advice for a request the provider rejected (e.g. `Check the API key (ANTHROPIC_API_KEY ...)`), or `''`. */
  hint(failure: RequestFailure): string;
}

/**
 * Runs `attempt` until it succeeds, retrying what `context.classify` calls
 * retryable with jittered exponential backoff (or the server's
 * `retry-after`), never waiting past the deadline. Every error of an attempt
 * is scrubbed of API keys first (see {@link SecretRedactor}), so what
 * `onRetry` sees and what is thrown never shows a key.
 *
 * @throws PromptEvaluationError naming the last status and why it stopped.
 */
export async function sendWithRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  context: RetryContext,
): Promise<T> {
  const maxRetries = context.retry?.maxRetries ?? 3;
  for (let number = 1; ; number++) {
    let failed: FailedAttempt;
    try {
      return await attempt(number);
    } catch (thrown) {
      failed = readFailedAttempt(thrown, number, context);
    }
    const delay = retryDelay(failed, number, maxRetries, context);
    context.retry?.onRetry?.({
      attempt: number,
      delayMs: delay,
      reason: failed.failure.reason,
      error: failed.error,
    });
    try {
      await sleep(delay, context.clock, context.signal);
    } catch {
      throw requestAborted(context, number, failed.error);
    }
  }
}

/** An attempt that threw: its error (scrubbed of keys) and how it failed. */
interface FailedAttempt {
  readonly error: unknown;
  readonly failure: RequestFailure;
  /** The error to throw when no retry is left, for a {@link RetryableResponseError}. */
  readonly final: PromptEvaluationError | undefined;
}

/** Scrubs and classifies what attempt `number` threw; throws at once what must not be retried. */
function readFailedAttempt(thrown: unknown, number: number, context: RetryContext): FailedAttempt {
  const error = context.redactor.error(thrown);
  if (PromptEvaluationError.is(error)) throw error;
  if (context.signal.aborted) throw requestAborted(context, number, error);
  if (error instanceof RetryableResponseError) {
    const failure: RequestFailure = {
      retryable: true,
      aborted: false,
      reason: error.reason,
      status: undefined,
      providerMessage: undefined,
      retryAfterMs: undefined,
      details: {},
    };
    return { error, failure, final: error.final };
  }
  return { error, failure: context.classify(error, context.clock.now()), final: undefined };
}

/**
 * How long to wait before retrying attempt `number`; throws when the failure
 * is not retryable, no retry is left, or the wait is too long for the server's
 * `retry-after` limit or the deadline.
 */
function retryDelay(
  { error, failure, final }: FailedAttempt,
  number: number,
  maxRetries: number,
  context: RetryContext,
): number {
  if (failure.aborted) throw requestAborted(context, number, error);
  if (!failure.retryable) throw final ?? rejected(context, failure, error);
  const giveUp = (why: string): PromptEvaluationError =>
    final ?? exhausted(context, number, failure, why, error);
  if (number > maxRetries) {
    throw giveUp(`no retry left (maxRetries: ${maxRetries})`);
  }
  const maxRetryAfter = context.retry?.maxRetryAfterMs ?? 60_000;
  if (failure.retryAfterMs !== undefined && failure.retryAfterMs > maxRetryAfter) {
    throw giveUp(
      `the server asked to wait ${Math.round(failure.retryAfterMs)} ms, more than maxRetryAfterMs (${maxRetryAfter})`,
    );
  }
  const delay = failure.retryAfterMs ?? backoff(number, context.retry);
  const left = context.deadline?.remaining();
  if (left !== undefined && delay >= left) {
    throw giveUp(`waiting ${Math.round(delay)} ms would pass the deadline (${left} ms left)`);
  }
  return delay;
}

/** `initialDelayMs × 2^(attempt-1)`, capped, minus up to `jitter` of it. */
function backoff(attempt: number, retry: RetryOptions | undefined): number {
  const initial = retry?.initialDelayMs ?? 500;
  const max = retry?.maxDelayMs ?? 8_000;
  const jitter = Math.min(1, Math.max(0, retry?.jitter ?? 0.25));
  const base = Math.min(max, initial * 2 ** (attempt - 1));
  return base * (1 - jitter * Math.random());
}

function sleep(ms: number, clock: Clock, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      timer.cancel();
      reject(signal.reason as Error);
    };
    const timer = clock.setTimer(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The error for a request ended by the deadline or a cancellation (`context.signal`)
 * during attempt `attempts`; also used by the streamed path once parts were delivered.
 */
export function requestAborted(
  context: RetryContext,
  attempts: number,
  cause: unknown,
): PromptEvaluationError {
  const deadline = context.deadline?.expired === true ? context.deadline : undefined;
  const byDeadline = deadline !== undefined;
  const what = byDeadline ? 'Deadline expired' : 'Evaluation was cancelled';
  return new PromptEvaluationError(
    `${what} during the ${context.provider} ${context.api} request (attempt ${attempts}).` +
      (byDeadline
        ? ' Allow more time with a later Deadline, or lower the work per evaluation.'
        : ''),
    {
      phase: 'request',
      prompt: context.prompt,
      cause: cause === undefined ? (context.signal.reason as unknown) : cause,
      providerPayload:
        deadline === undefined
          ? { attempts }
          : { deadlineExpiresAt: deadline.expiresAt.toISOString(), attempts },
    },
  );
}

function rejected(
  context: RetryContext,
  failure: RequestFailure,
  cause: unknown,
): PromptEvaluationError {
  const said = saidBy(failure);
  return new PromptEvaluationError(
    `${context.provider} rejected the ${context.api} request (${failure.reason})${said}. ${context.hint(failure)}`.trim(),
    { phase: 'request', prompt: context.prompt, cause, providerPayload: failure.details },
  );
}

function exhausted(
  context: RetryContext,
  attempts: number,
  failure: RequestFailure,
  why: string,
  cause: unknown,
): PromptEvaluationError {
  const said = saidBy(failure);
  return new PromptEvaluationError(
    `${context.provider} ${context.api} request failed after ${attempts} attempt(s); last error ${failure.reason}${said}. ` +
      `Gave up because ${why}.`,
    {
      phase: 'request',
      prompt: context.prompt,
      cause,
      providerPayload: payloadOf(failure.details, attempts, failure.retryAfterMs),
    },
  );
}

/** `: <the provider's message>` without its final period (the sentence goes on), or nothing. */
function saidBy(failure: RequestFailure): string {
  if (failure.providerMessage === undefined) return '';
  let text = failure.providerMessage.trimEnd();
  while (text.endsWith('.')) text = text.slice(0, -1);
  return `: ${text}`;
}

/** The failure's details with the attempts and the wait the provider asked for (a lone spread keeps `__proto__` keys inert). */
function payloadOf(
  details: Readonly<Record<string, unknown>>,
  attempts: number,
  retryAfterMs: number | undefined,
): Record<string, unknown> {
  const payload: Record<string, unknown> = { ...details };
  payload['attempts'] = attempts;
  payload['retryAfterMs'] = retryAfterMs;
  return payload;
}
