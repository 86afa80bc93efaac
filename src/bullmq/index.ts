/**
 * `affordance/bullmq`: evaluations as BullMQ jobs on stored sessions. Needs
 * the `bullmq` package; sessions are stored through `affordance/durable`.
 * @packageDocumentation
 */
export { MAX_JOB_INPUT_LENGTH, MAX_JOB_TURNS } from './check-job-data.js';
export {
  createEvaluationWorker,
  type EvaluationWorkerOptions,
} from './create-evaluation-worker.js';
export {
  DEFAULT_EVALUATION_QUEUE,
  type EvaluationJobData,
  type EvaluationJobProgress,
  type EvaluationJobResult,
  type PendingCallSummary,
} from './evaluation-job.js';
export type { EvaluationJobLike, EvaluationJobPrompt } from './evaluation-job-prompt.js';
export type { JobContextPropagation } from './job-context-propagation.js';
export {
  EvaluationQueue,
  type EnqueueEvaluation,
  type EnqueueResume,
  type EvaluationQueueOptions,
} from './evaluation-queue.js';
export { type EvaluationJobContext, runEvaluationJob } from './run-evaluation-job.js';
