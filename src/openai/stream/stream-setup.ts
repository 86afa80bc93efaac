import type { RetryContext } from '../../provider/index.js';

/** The SDK request options of one attempt: its signal, no SDK retries, the header timeout. */
export interface AttemptOptions {
  /** Absent when nothing can abort the request (see `withRequestSignal`). */
  readonly signal?: AbortSignal;
  readonly maxRetries: number;
  readonly timeout: number;
}

/** What a streamed request needs from the adapter besides its body. */
export interface StreamSetup<TurnContext> {
  /** Retries, deadline, cancellation and key redaction, as for `request()`. */
  readonly send: RetryContext;
  /** The SDK options of one attempt, for its own abort signal. */
  readonly requestOptions: (signal: AbortSignal) => AttemptOptions;
  /** What reading the turn needs, as for `request()`. */
  readonly turn: TurnContext;
  /** The request's `maxAnswerChars`, for a whole answer a server sends instead of a stream. */
  readonly maxAnswerChars: number | undefined;
}
