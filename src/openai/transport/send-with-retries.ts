import { type Clock, PromptEvaluationError } from '../../index.js';
import { type RequestDeadline } from '../../provider/index.js';
import { classifyOpenAIError, type OpenAIFailure } from './classify-openai-error.js';
import type { OpenAIRetryOptions } from '../openai-retry-options.js';
import type { SecretRedactor } from './secret-redactor.js';

/**
 * Thrown by an attempt whose response arrived but says the provider failed in
 * a way another attempt may fix (a `failed` response with `server_error`).
 * When no retry is left, `final` is thrown instead.
 */
export class RetryableResponseError extends Error {
  constructor(
    readonly reason: string,
    readonly final: PromptEvaluationError,
  ) {
    super(final.message);
  }
}

/** What {@link sendWithRetries} needs besides the attempt itself. */
export interface SendContext {
  /** `ns/key` of the prompt, for error messages. */
  readonly prompt: string;
  /** `Responses` or `Chat Completions`, for error messages. */
  readonly api: string;
  readonly signal: AbortSignal;
  readonly deadline: RequestDeadline | undefined;
  readonly clock: Clock;
  readonly retry: OpenAIRetryOptions | undefined;
  /** Scrubs API keys from every error of an attempt before it is classified, reported or thrown. */
  readonly redactor: SecretRedactor;
}

/**
 * Runs `attempt` until it succeeds, retrying what {@link classifyOpenAIError}
 * calls retryable with jittered exponential backoff (or the server's
 * `retry-after`), never waiting past the deadline. Every error of an attempt
 * is scrubbed of API keys first (see {@link SecretRedactor}), so what
 * `onRetry` sees and what is thrown never shows a key.
 *
 * @throws PromptEvaluationError naming the last status and why it stopped.
 */
export async function sendWithRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  context: SendContext,
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
      throw aborted(context, number, failed.error);
    }
  }
}

/** An attempt that threw: its error (scrubbed of keys) and how it failed. */
interface FailedAttempt {
  readonly error: unknown;
  readonly failure: OpenAIFailure;
  /** The error to throw when no retry is left, for a {@link RetryableResponseError}. */
  readonly final: PromptEvaluationError | undefined;
}

/** Scrubs and classifies what attempt `number` threw; throws at once what must not be retried. */
function readFailedAttempt(thrown: unknown, number: number, context: SendContext): FailedAttempt {
  const error = context.redactor.error(thrown);
  if (PromptEvaluationError.is(error)) throw error;
  if (context.signal.aborted) throw aborted(context, number, error);
  if (error instanceof RetryableResponseError) {
    const failure: OpenAIFailure = {
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
  return { error, failure: classifyOpenAIError(error, context.clock.now()), final: undefined };
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
  context: SendContext,
): number {
  if (failure.aborted) throw aborted(context, number, error);
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
function backoff(attempt: number, retry: OpenAIRetryOptions | undefined): number {
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
export function aborted(
  context: SendContext,
  attempts: number,
  cause: unknown,
): PromptEvaluationError {
  const deadline = context.deadline?.expired === true ? context.deadline : undefined;
  const byDeadline = deadline !== undefined;
  const what = byDeadline ? 'Deadline expired' : 'Evaluation was cancelled';
  return new PromptEvaluationError(
    `${what} during the OpenAI ${context.api} request (attempt ${attempts}).` +
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
  context: SendContext,
  failure: OpenAIFailure,
  cause: unknown,
): PromptEvaluationError {
  const said = saidBy(failure);
  return new PromptEvaluationError(
    `OpenAI rejected the ${context.api} request (${failure.reason})${said}. ${hintFor(failure)}`.trim(),
    { phase: 'request', prompt: context.prompt, cause, providerPayload: failure.details },
  );
}

function exhausted(
  context: SendContext,
  attempts: number,
  failure: OpenAIFailure,
  why: string,
  cause: unknown,
): PromptEvaluationError {
  const said = saidBy(failure);
  return new PromptEvaluationError(
    `OpenAI ${context.api} request failed after ${attempts} attempt(s); last error ${failure.reason}${said}. ` +
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
function saidBy(failure: OpenAIFailure): string {
  if (failure.providerMessage === undefined) return '';
  let text = failure.providerMessage.trimEnd();
  while (text.endsWith('.')) text = text.slice(0, -1);
  return `: ${text}`;
}

function hintFor(failure: OpenAIFailure): string {
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
