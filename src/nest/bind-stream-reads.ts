import type { EvaluationStream, EvaluationStreamPart } from '../index.js';

/** Runs `read` inside a context and returns what it returns. */
export type ReadContext = <T>(read: () => Promise<T>) => Promise<T>;

/**
 * Makes every read of `stream` (each `next()` and `return()` of its iterator,
 * and `cancel()`) run inside `enter`, and returns the same stream. `ended`
 * is called once the stream is over: its last part was read, a read failed,
 * or the reader returned or cancelled.
 *
 * A stream's evaluation starts on its first `next()`, not when the stream is
 * built, and whatever the evaluation awaits keeps the async context it
 * started in. So entering the context around `runtime.stream(...)` would not
 * reach the evaluation; entering it around the reads does, whoever reads and
 * from wherever. @internal
 */
export function bindStreamReads<O>(
  stream: EvaluationStream<O>,
  enter: ReadContext,
  ended: () => void,
): EvaluationStream<O> {
  const iterate = stream[Symbol.asyncIterator].bind(stream);
  const cancel = stream.cancel.bind(stream);
  Object.defineProperties(stream, {
    [Symbol.asyncIterator]: { value: () => readsIn(iterate(), enter, ended), configurable: true },
    cancel: {
      value: (reason?: unknown) => enter(() => cancel(reason)).finally(ended),
      configurable: true,
    },
  });
  return stream;
}

function readsIn<O>(
  iterator: AsyncIterator<EvaluationStreamPart<O>>,
  enter: ReadContext,
  ended: () => void,
): AsyncIterator<EvaluationStreamPart<O>> {
  return {
    next: () =>
      enter(() => iterator.next()).then(
        (result) => {
          if (result.done === true) ended();
          return result;
        },
        (error: unknown) => {
          ended();
          throw error;
        },
      ),
    return: () =>
      enter(
        () => iterator.return?.() ?? Promise.resolve({ done: true as const, value: undefined }),
      ).finally(ended),
  };
}
