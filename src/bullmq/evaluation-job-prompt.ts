import type { JsonValue, Prompt, Session } from '../index.js';
import type { EvaluationJobData, EvaluationJobProgress } from './evaluation-job.js';

/** How a worker runs the jobs that name one prompt. */
export interface EvaluationJobPrompt {
  /** The prompt to evaluate. */
  readonly prompt: Prompt;
  /** Builds the prompt's render params from the job's `data` (run again on every attempt and resume). */
  readonly params?: ((data: JsonValue | undefined) => readonly object[]) | undefined;
  /** Installs the application's state classes and reducers on the loaded session, before its slices are filled. */
  readonly setup?: ((session: Session) => void) | undefined;
}

/** The part of a BullMQ job the runner reads. */
export interface EvaluationJobLike {
  /** The job's id (BullMQ keeps it across attempts). */
  readonly id?: string | undefined;
  /** The job's data. */
  readonly data: EvaluationJobData;
  /** Reports progress. */
  updateProgress(progress: EvaluationJobProgress): Promise<void>;
}
