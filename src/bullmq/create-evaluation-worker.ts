import { UnrecoverableError, Worker, type ConnectionOptions, type WorkerOptions } from 'bullmq';

import { ConfigurationError, EvaluationStateError } from '../index.js';

import type {
  EvaluationJobData,
  EvaluationJobProgress,
  EvaluationJobResult,
} from './evaluation-job.js';
import { DEFAULT_EVALUATION_QUEUE } from './evaluation-job.js';
import type { JobContextPropagation } from './job-context-propagation.js';
import { type EvaluationJobContext, runEvaluationJob } from './run-evaluation-job.js';

/** Options of {@link createEvaluationWorker}. */
export interface EvaluationWorkerOptions extends EvaluationJobContext {
  /** The Redis connection BullMQ uses (options, or an ioredis client with `maxRetriesPerRequest: null`). */
  readonly connection: ConnectionOptions;
  /** The queue to take jobs from; `affordance-evaluations` by default. */
  readonly queueName?: string | undefined;
  /** How many jobs this worker runs at once; 1 by default. */
  readonly concurrency?: number | undefined;
  /**
   * Further BullMQ worker options, e.g. `lockDuration` and `stalledInterval`
   * (how soon a job whose worker died is handed to another) or `autorun`.
   */
  readonly worker?: Omit<WorkerOptions, 'connection' | 'concurrency'> | undefined;
  /**
   * Restores the context each job was added in (e.g. `traceContextPropagation()`
   * from `affordance/otel`, so the job's spans join the enqueuing request's trace).
   */
  readonly propagation?: JobContextPropagation | undefined;
}

/**
 * A BullMQ worker that runs evaluation jobs on stored sessions (see
 * {@link runEvaluationJob}): it loads the job's session, evaluates (or
 * resumes, or recovers after a crash), commits the session at every
 * checkpoint and reports progress through BullMQ's progress events. Jobs are
 * delivered at least once; a tool call's outcome is recorded exactly once. A
 * job that cannot succeed on retry (an unknown prompt, a refused resume) fails
 * at once. `await worker.close()` lets running jobs finish first (graceful
 * shutdown); a worker that dies leaves its jobs to be taken over once their lock expires.
 */
export function createEvaluationWorker(
  options: EvaluationWorkerOptions,
): Worker<EvaluationJobData, EvaluationJobResult> {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new ConfigurationError({
      subject: 'createEvaluationWorker.concurrency',
      problem: `must be a positive integer, got ${String(concurrency)}.`,
      fix: 'Pass how many jobs one worker runs at once, e.g. concurrency: 4, or leave it out for 1.',
    });
  }
  const context: EvaluationJobContext = {
    runtime: options.runtime,
    persistence: options.persistence,
    prompts: options.prompts,
    evaluate: options.evaluate,
  };
  const propagation = options.propagation;
  return new Worker<EvaluationJobData, EvaluationJobResult>(
    options.queueName ?? DEFAULT_EVALUATION_QUEUE,
    async (job, _token, signal) => {
      const run = () =>
        runEvaluationJob(
          {
            id: job.id,
            data: job.data,
            updateProgress: (progress: EvaluationJobProgress) => job.updateProgress(progress),
          },
          context,
          signal,
        );
      const carried = carriedContext(job.data);
      try {
        return await (propagation === undefined || carried === undefined
          ? run()
          : propagation.restore(carried, run));
      } catch (error) {
        // Misuse and refused resumes fail the same way on every attempt: do not retry them.
        if (ConfigurationError.is(error) || EvaluationStateError.is(error)) {
          throw new UnrecoverableError(error.message);
        }
        throw error;
      }
    },
    Object.assign({}, options.worker, { connection: options.connection, concurrency }),
  );
}

/** The context fields a job carries, when they are a record of strings (anything else fails the job in `checkJobData`). */
function carriedContext(data: unknown): Readonly<Record<string, string>> | undefined {
  const context = (data as { context?: unknown } | null)?.context;
  if (typeof context !== 'object' || context === null || Array.isArray(context)) return undefined;
  const entries = Object.entries(context);
  return entries.every(([, value]) => typeof value === 'string')
    ? Object.fromEntries(entries)
    : undefined;
}
