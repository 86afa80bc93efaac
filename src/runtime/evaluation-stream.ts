import type { EvaluationStreamPart } from './evaluation-stream-part.js';
import { PartChannel } from './part-channel.js';
import type { PromptResponse } from './prompt-response.js';

/** Where a streamed evaluation sends its parts. @internal */
export interface PartSink<O = unknown> {
  /** Sends `part`; returns a promise to await only while the consumer's buffer is full. */
  send(part: EvaluationStreamPart<O>): Promise<void> | undefined;
  /** Sends `part` without waiting (from synchronous callbacks). */
  sendNow(part: EvaluationStreamPart<O>): void;
  /**
   * How many more parts fit before the buffer is full; a promise while it is
   * full, or with `empty` until every part was read (see `PartChannel.room`).
   */
  readonly room: (empty: boolean) => number | Promise<number>;
}

/** Runs the evaluation behind a stream, sending its parts to `sink`; aborted through `signal`. @internal */
export type StreamProducer<O> = (
  sink: PartSink<O>,
  signal: AbortSignal,
) => Promise<PromptResponse<O>>;

/**
 * How many parts an evaluation may produce ahead of its consumer: with this
 * many unread, the stream's buffer is full, and the evaluation waits before
 * sending the next delta and before starting the next tool call; a turn's
 * first call also waits until every part before it was read, so a reader
 * sees which calls the model asked for before any runs (docs/guide/guarantees.md). The parts sent without waiting (a turn's `usage`,
 * `native-call` and `turn-end`, and the `tool-call-end`s of the calls already
 * started) may go past it.
 */
const BUFFERED_PARTS = 16;

/**
 * A streamed evaluation: iterate it with `for await` to receive its
 * {@link EvaluationStreamPart}s as they happen. It starts on the first read and
 * runs the same loop as `runtime.evaluate` (same events, same rules), never
 * more than a small buffer ahead of the reader: once 16 parts are unread it
 * waits, and starts no further tool call, until they are read; a turn's tool
 * calls start only once the reader has read the turn. It ends after one `answer`,
 * one `interrupted` or one `error` part; it never throws. Leaving the loop early (`break`, `return`,
 * or an exception in its body) cancels the evaluation as the caller's signal
 * would (the provider request and running tool calls are aborted, interrupted
 * calls are recorded with outcome `unknown`), and resolves once it has wound
 * down. One stream can be iterated once.
 *
 * @example
 * for await (const part of runtime.stream(prompt, { input })) {
 *   if (part.type === 'text-delta') process.stdout.write(part.delta);
 *   if (part.type === 'error') throw part.error;
 * }
 */
export class EvaluationStream<O = unknown> implements AsyncIterable<EvaluationStreamPart<O>> {
  readonly #producer: StreamProducer<O>;
  readonly #channel = new PartChannel<EvaluationStreamPart<O>>(BUFFERED_PARTS);
  readonly #controller = new AbortController();
  #running: Promise<void> | undefined;
  #iterated = false;

  /** @internal Built by `runtime.stream`. */
  constructor(producer: StreamProducer<O>) {
    this.#producer = producer;
  }

  /** The stream's iterator; a stream can be iterated once. */
  [Symbol.asyncIterator](): AsyncIterator<EvaluationStreamPart<O>> {
    if (this.#iterated) {
      throw new TypeError(
        'This evaluation stream is already being read: a stream can be iterated once. Call runtime.stream() again for another evaluation.',
      );
    }
    this.#iterated = true;
    return {
      next: () => {
        this.#start();
        // A buffered part is handed over without another asynchronous step.
        const polled = this.#channel.poll();
        if (polled !== undefined) return Promise.resolve({ value: polled.item });
        return this.#channel
          .take()
          .then((taken) =>
            taken === undefined ? { done: true, value: undefined } : { value: taken.item },
          );
      },
      return: async () => {
        await this.cancel();
        return { done: true, value: undefined };
      },
    };
  }

  /**
   * Stops the evaluation (if it is still running) as a cancellation, drops
   * the parts not read yet, and resolves once the evaluation has wound down.
   * A stream cancelled before its first read never starts its evaluation.
   */
  async cancel(
    reason: unknown = new Error('The reader of the evaluation stream stopped.'),
  ): Promise<void> {
    this.#controller.abort(reason);
    this.#channel.discard();
    await this.#running;
  }

  #start(): void {
    if (this.#running !== undefined) return;
    const channel = this.#channel;
    // Cancelled before its first read: the evaluation never starts, and the stream is empty.
    if (this.#controller.signal.aborted) {
      channel.close();
      this.#running = Promise.resolve();
      return;
    }
    const sink: PartSink<O> = {
      send: (part) => channel.push(part),
      sendNow: (part) => {
        channel.pushNow(part);
      },
      room: (empty) => channel.room(empty),
    };
    this.#running = this.#producer(sink, this.#controller.signal).then(
      async (response) => {
        await channel.push(
          response.status === 'completed'
            ? { type: 'answer', response }
            : { type: 'interrupted', interruption: response.interruption, response },
        );
        channel.close();
      },
      async (error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error));
        await channel.push({ type: 'error', error: failure });
        channel.close();
      },
    );
  }
}
