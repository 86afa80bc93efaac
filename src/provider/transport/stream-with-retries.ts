import type { ProviderTurn } from '../conversation.js';
import { partsOfTurn, type ProviderStreamPart } from '../provider-stream-part.js';
import { childSignal, type ChildSignal } from './child-signal.js';
import { type RetryContext, sendWithRetries } from './send-with-retries.js';
import { streamBrokeOff } from './stream-failure.js';

/** Reads the events of one streamed answer into parts; {@link streamWithRetries} makes one per attempt. */
export interface StreamReader {
  /** The parts one event adds, in order (often none). */
  read(event: unknown): readonly ProviderStreamPart[];
  /** What to throw for an error the SDK's event iterator threw (often the error itself). */
  readError(thrown: unknown): unknown;
  /** The whole turn once the events are over; throws when they stopped before the answer was whole. */
  end(): ProviderTurn;
}

/** The SDK's event stream of one request, and its HTTP response (what `.withResponse()` of a streamed SDK call gives). */
export interface OpenedStream {
  readonly data: AsyncIterable<unknown>;
  readonly response: Response;
}

/** What one streamed request sends, and how its answer is read, for {@link streamWithRetries}. */
export interface StreamSource {
  /** Sends the request; `signal` aborts it. */
  open(signal: AbortSignal): Promise<OpenedStream>;
  /** A new reader for one attempt's events. */
  reader(): StreamReader;
  /**
   * Reads a whole answer from a server that ignored `stream: true` and
   * answered with something other than `text/event-stream` (see {@link readJsonBody}).
   */
  readWhole(response: Response): Promise<ProviderTurn>;
}

/** Parts read together, and whether the turn (always the last part) is among them. */
interface Batch {
  readonly parts: readonly ProviderStreamPart[];
  readonly done: boolean;
}

/** The attempt that got an answer going: its stream (none for a whole JSON answer) and first parts. */
interface Started {
  readonly events: EventPump | undefined;
  readonly first: Batch;
  readonly attempt: number;
}

/**
 * Sends a streamed request and yields its parts, the `turn` part last.
 * Until the first part is ready, each attempt runs under
 * {@link sendWithRetries} (retry-after, backoff, deadline, key redaction):
 * a failed request, an error status, or a stream that breaks before it said
 * anything is retried. Once a part was yielded nothing is retried, since a new
 * attempt would deliver those parts again: a failure is thrown (see
 * {@link streamBrokeOff}). Returning early (`return()`, `break`) aborts the
 * HTTP request; so does `context.signal`, which ends the iteration with the
 * same error `request()` throws when cancelled.
 */
export async function* streamWithRetries(
  source: StreamSource,
  context: RetryContext,
): AsyncGenerator<ProviderStreamPart, void, undefined> {
  const started = await sendWithRetries((attempt) => start(source, context, attempt), context);
  const { events, attempt } = started;
  try {
    let batch = started.first;
    while (!batch.done && events !== undefined) {
      yield* batch.parts;
      try {
        batch = await events.pull();
      } catch (thrown) {
        throw streamBrokeOff(thrown, attempt, context);
      }
    }
    // Released before the turn is handed over: a consumer may stop at the turn without returning.
    await events?.close();
    yield* batch.parts;
  } finally {
    await events?.close();
  }
}

/** One attempt: sends the request and reads up to its first parts. */
async function start(
  source: StreamSource,
  context: RetryContext,
  attempt: number,
): Promise<Started> {
  const child = childSignal(context.signal);
  let events: EventPump | undefined;
  try {
    const { data, response } = await source.open(child.controller.signal);
    if (!isEventStream(response)) {
      // A server that ignores `stream: true` answers with the whole JSON body (or a web page).
      const turn = await source.readWhole(response);
      child.detach();
      return { events: undefined, first: { parts: partsOfTurn(turn), done: true }, attempt };
    }
    events = new EventPump(data[Symbol.asyncIterator](), source.reader(), child, context.signal);
    return { events, first: await events.pull(), attempt };
  } catch (thrown) {
    if (events === undefined) {
      child.controller.abort();
      child.detach();
    } else {
      await events.close();
    }
    throw thrown;
  }
}

function isEventStream(response: Response): boolean {
  const type = response.headers.get('content-type') ?? '';
  return type.split(';')[0]?.trim().toLowerCase() === 'text/event-stream';
}

/** The events of one open stream, read into parts batch by batch. */
class EventPump {
  readonly #events: AsyncIterator<unknown>;
  readonly #reader: StreamReader;
  readonly #child: ChildSignal;
  readonly #parent: AbortSignal;
  #closed = false;

  constructor(
    events: AsyncIterator<unknown>,
    reader: StreamReader,
    child: ChildSignal,
    parent: AbortSignal,
  ) {
    this.#events = events;
    this.#reader = reader;
    this.#child = child;
    this.#parent = parent;
  }

  /** Reads events until some give parts, or until the end, which gives the turn. */
  async pull(): Promise<Batch> {
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = await this.#events.next();
      } catch (thrown) {
        throw this.#reader.readError(thrown);
      }
      if (next.done === true) {
        // The SDK ends the iteration quietly when the request is aborted.
        if (this.#parent.aborted) throw this.#parent.reason;
        return { parts: [{ type: 'turn', turn: this.#reader.end() }], done: true };
      }
      const parts = this.#reader.read(next.value);
      if (parts.length > 0) return { parts, done: false };
    }
  }

  /** Aborts the HTTP request if it is still going and stops following the evaluation's signal. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#child.controller.abort();
    this.#child.detach();
    try {
      await this.#events.return?.();
    } catch {
      // The stream had already failed; there is nothing left to release.
    }
  }
}
