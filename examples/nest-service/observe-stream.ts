import type { MessageEvent } from '@nestjs/common';
import { Observable } from 'rxjs';

import type { EvaluationStream, EvaluationStreamPart } from 'affordance';

/** How a streamed evaluation ended, as far as its reader knows; `paused` when calls wait for approval. */
export type StreamEnding = 'answered' | 'paused' | 'failed' | 'cancelled';

/**
 * The parts of `stream` as an Observable of SSE messages, one message per
 * object `toEvents` returns for a part (sent as JSON by Nest); `toEvents` may
 * be async (e.g. to save a paused evaluation before telling the client how to
 * resume it), and the next part waits for it. The stream is
 * read when the Observable is subscribed to; unsubscribing before the end
 * (Nest does when the client disconnects) cancels the evaluation. `onEnd`
 * is called once the evaluation is over: answered, paused for approval,
 * failed, or cancelled (after it has wound down).
 */
export function observeStream<O>(
  stream: EvaluationStream<O>,
  toEvents: (part: EvaluationStreamPart<O>) => readonly object[] | Promise<readonly object[]>,
  onEnd: (ending: StreamEnding) => void,
): Observable<MessageEvent> {
  return new Observable<MessageEvent>((subscriber) => {
    const iterator = stream[Symbol.asyncIterator]();
    let over = false;
    const pump = async (): Promise<StreamEnding> => {
      let ending: StreamEnding = 'cancelled';
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) return ending;
        if (next.value.type === 'answer') ending = 'answered';
        if (next.value.type === 'interrupted') ending = 'paused';
        if (next.value.type === 'error') ending = 'failed';
        for (const data of await toEvents(next.value)) subscriber.next({ data });
      }
    };
    pump().then(
      (ending) => {
        if (over) return;
        over = true;
        onEnd(ending);
        subscriber.complete();
      },
      (error: unknown) => {
        over = true;
        void iterator.return?.();
        subscriber.error(error);
      },
    );
    // Teardown: runs on unsubscribe, and after complete or error (then nothing is left to do).
    return () => {
      if (over) return;
      over = true;
      void iterator.return?.().then(() => {
        onEnd('cancelled');
      });
    };
  });
}
