import type { MessageEvent } from '@nestjs/common';
import { Observable } from 'rxjs';

import type { EvaluationQueue } from 'affordance/bullmq';

/**
 * The events of job `jobId` as server-sent events: each `progress` the worker
 * reports (those reported before the client subscribed too, while Redis still
 * holds them), then one `completed` (with the job's result) or `failed` (with
 * the reason), and the stream ends. A job that ended before the client
 * subscribed gets its ending at once; an unknown job, one `missing` event.
 */
export function observeJob(queue: EvaluationQueue, jobId: string): Observable<MessageEvent> {
  return new Observable<MessageEvent>((subscriber) => {
    // From the start of the retained event stream: progress the job reported before this
    // client subscribed is replayed in order, not lost.
    const events = queue.events({ lastEventId: '0' });
    let over = false;
    const end = (message: MessageEvent): void => {
      if (over) return;
      over = true;
      subscriber.next(message);
      subscriber.complete();
    };
    events.on('progress', ({ jobId: id, data }) => {
      if (id === jobId && !over) subscriber.next({ type: 'progress', data: data as object });
    });
    events.on('completed', ({ jobId: id, returnvalue }) => {
      const result: unknown = returnvalue;
      if (id === jobId) end({ type: 'completed', data: result as object });
    });
    events.on('failed', ({ jobId: id, failedReason }) => {
      if (id === jobId) end({ type: 'failed', data: { failedReason } });
    });
    // Listening first, then looking: a job that ends in between is reported once.
    void events.waitUntilReady().then(async () => {
      const job = await queue.queue.getJob(jobId);
      if (job === undefined) {
        end({ type: 'missing', data: { jobId } });
        return;
      }
      const state = await job.getState();
      if (state === 'completed') end({ type: 'completed', data: job.returnvalue });
      if (state === 'failed') end({ type: 'failed', data: { failedReason: job.failedReason } });
    });
    return () => {
      void events.close();
    };
  });
}
