import { Queue, QueueEvents, type ConnectionOptions, type JobsOptions } from 'bullmq';

import type { ApprovalDecision, JsonValue } from '../index.js';

import type { EvaluationJobData, EvaluationJobResult } from './evaluation-job.js';
import type { JobContextPropagation } from './job-context-propagation.js';
import { DEFAULT_EVALUATION_QUEUE } from './evaluation-job.js';

/** Options of an {@link EvaluationQueue}. */
export interface EvaluationQueueOptions {
  /** The Redis connection BullMQ uses. */
  readonly connection: ConnectionOptions;
  /** The queue's name; `affordance-evaluations` by default (the worker's must match). */
  readonly queueName?: string | undefined;
  /**
   * Options every job gets; by default 3 attempts with exponential backoff
   * from one second (a retried job recovers from its last checkpoint).
   */
  readonly jobs?: JobsOptions | undefined;
  /** Captures a context (e.g. `traceContextPropagation()` from `affordance/otel`) into each job added. */
  readonly propagation?: JobContextPropagation | undefined;
}

/** What {@link EvaluationQueue.enqueue} asks for. */
export interface EnqueueEvaluation {
  /** The name the workers know the prompt by. */
  readonly prompt: string;
  /** The stored session to record in (created on first use). */
  readonly sessionId: string;
  /** Handed to the prompt's `params(data)` on the worker. */
  readonly data?: JsonValue | undefined;
  /** The user's message. */
  readonly input?: string | undefined;
  /** The evaluation's turn limit. */
  readonly maxTurns?: number | undefined;
  /** A job id of your own, making the enqueue idempotent (BullMQ ignores a second job with the same id). */
  readonly jobId?: string | undefined;
}

/** What {@link EvaluationQueue.resume} asks for. */
export interface EnqueueResume {
  /** The prompt of the paused evaluation. */
  readonly prompt: string;
  /** Its session. */
  readonly sessionId: string;
  /** The id of the job whose result was `interrupted`. */
  readonly resumeOf: string;
  /** One decision per pending call of that result. */
  readonly decisions: readonly ApprovalDecision[];
  /** The same `data` the evaluation was enqueued with (its render params). */
  readonly data?: JsonValue | undefined;
  /** A job id of your own. */
  readonly jobId?: string | undefined;
}

/**
 * The producer side: adds evaluation jobs to a BullMQ queue for workers made
 * by `createEvaluationWorker`. Read results and progress with BullMQ's own
 * `QueueEvents` or `Job.waitUntilFinished` on `queue.queue`.
 */
export class EvaluationQueue {
  /** The underlying BullMQ queue. */
  readonly queue: Queue<EvaluationJobData, EvaluationJobResult>;
  readonly #connection: ConnectionOptions;
  readonly #propagation: JobContextPropagation | undefined;

  constructor(options: EvaluationQueueOptions) {
    this.#connection = options.connection;
    this.#propagation = options.propagation;
    this.queue = new Queue<EvaluationJobData, EvaluationJobResult>(
      options.queueName ?? DEFAULT_EVALUATION_QUEUE,
      {
        connection: options.connection,
        defaultJobOptions: options.jobs ?? {
          attempts: 3,
          backoff: { type: 'exponential', delay: 1_000 },
        },
      },
    );
  }

  /** Adds a job that evaluates `request.prompt` on session `request.sessionId`; returns the job id. */
  async enqueue(request: EnqueueEvaluation): Promise<string> {
    const data: EvaluationJobData = {
      kind: 'evaluate',
      prompt: request.prompt,
      sessionId: request.sessionId,
      data: request.data,
      input: request.input,
      maxTurns: request.maxTurns,
    };
    return await this.#add(data, request.jobId);
  }

  /** Adds a job that resumes the evaluation paused by job `request.resumeOf`; returns the job id. */
  async resume(request: EnqueueResume): Promise<string> {
    const data: EvaluationJobData = {
      kind: 'resume',
      prompt: request.prompt,
      sessionId: request.sessionId,
      data: request.data,
      resumeOf: request.resumeOf,
      decisions: request.decisions,
    };
    return await this.#add(data, request.jobId);
  }

  /**
   * A new listener of this queue's events (`progress`, `completed`, `failed`...)
   * on its own connection; close it when done. See BullMQ's `QueueEvents`.
   * From the events produced after it starts listening by default; pass
   * `lastEventId: '0'` to replay the events Redis still holds first (BullMQ
   * keeps about the last 10,000), so a listener that starts after a job does
   * not miss the job's earlier progress.
   */
  events(options: { readonly lastEventId?: string | undefined } = {}): QueueEvents {
    const from = options.lastEventId;
    return new QueueEvents(
      this.queue.name,
      from === undefined
        ? { connection: this.#connection }
        : { connection: this.#connection, lastEventId: from },
    );
  }

  /** Closes the queue's connection. */
  async close(): Promise<void> {
    await this.queue.close();
  }

  async #add(given: EvaluationJobData, jobId: string | undefined): Promise<string> {
    const context = this.#propagation?.capture();
    const data =
      context === undefined || Object.keys(context).length === 0
        ? given
        : Object.assign({}, given, { context: { ...context } });
    const job = await this.queue.add(data.kind, data, jobId === undefined ? undefined : { jobId });
    return job.id ?? '';
  }
}
