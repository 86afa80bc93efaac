import { Observable } from 'rxjs';

import type { EvaluationStream, EvaluationStreamPart } from '../index.js';

/**
 * The parts of the stream `open` returns, as a cold Observable: each
 * subscription opens and reads its own stream, sends each part as it is read
 * and completes after the last one (an evaluation's failure is its last,
 * `error` part). Unsubscribing before the end (Nest does when a server-sent
 * events client disconnects) returns the stream's iterator, which cancels the
 * evaluation (docs/guide/guarantees.md). @internal
 */
export function observeStream<O>(
  open: () => EvaluationStream<O>,
): Observable<EvaluationStreamPart<O>> {
  return new Observable<EvaluationStreamPart<O>>((subscriber) => {
    const parts = open()[Symbol.asyncIterator]();
    let over = false;
    const pump = async (): Promise<void> => {
      for (let next = await parts.next(); next.done !== true; next = await parts.next()) {
        if (over) return;
        subscriber.next(next.value);
      }
    };
    pump().then(
      () => {
        over = true;
        subscriber.complete();
      },
      (error: unknown) => {
        over = true;
        subscriber.error(error);
      },
    );
    // Runs on unsubscribe, and after the end (then the stream is already over).
    return () => {
      if (over) return;
      over = true;
      void parts.return?.();
    };
  });
}
