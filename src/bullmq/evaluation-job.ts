import type { ApprovalDecision, JsonValue } from '../index.js';

/** The name of the queue evaluations go through unless told otherwise. */
export const DEFAULT_EVALUATION_QUEUE = 'affordance-evaluations';

/** What one job asks a worker to do: run a prompt on a stored session, or resume one that paused. Plain JSON. */
export interface EvaluationJobData {
  /** `evaluate` starts an evaluation; `resume` continues one that paused for approval. */
  readonly kind: 'evaluate' | 'resume';
  /** The name the worker knows the prompt by (a key of its `prompts`). */
  readonly prompt: string;
  /** The stored session the evaluation reads and records in. */
  readonly sessionId: string;
  /** Handed to the prompt's `params(data)` to build its render params (also on resume). */
  readonly data?: JsonValue | undefined;
  /** The user's message, if any. */
  readonly input?: string | undefined;
  /** The evaluation's turn limit; the runtime's by default. */
  readonly maxTurns?: number | undefined;
  /** For `resume`: the id of the job whose evaluation paused. */
  readonly resumeOf?: string | undefined;
  /** For `resume`: one decision per pending call. */
  readonly decisions?: readonly ApprovalDecision[] | undefined;
  /**
   * What the adding process's `JobContextPropagation` captured (e.g. W3C
   * `traceparent`), restored around the job by a worker given one.
   */
  readonly context?: Readonly<Record<string, string>> | undefined;
}

/** A call waiting for approval, as a job's result lists it. */
export interface PendingCallSummary {
  /** The call's id: decide it by this id. */
  readonly callId: string;
  /** The tool's name. */
  readonly name: string;
  /** The arguments as the model sent them. */
  readonly arguments: JsonValue;
  /** Why it needs approval. */
  readonly reason: string;
}

/** What a job returns: the answer, or the calls an evaluation waits on. Plain JSON. */
export type EvaluationJobResult =
  | {
      readonly status: 'completed';
      /** The evaluation's id. */
      readonly evaluationId: string;
      /** The final text, if any. */
      readonly text: string | null;
      /** The structured output as JSON (the session's `PromptExecuted` holds the instance). */
      readonly output: JsonValue;
      /** Requests made to the provider. */
      readonly turns: number;
      /** Tool calls recorded by the evaluation (native ones included). */
      readonly toolCalls: number;
    }
  | {
      readonly status: 'interrupted';
      /** The evaluation's id. */
      readonly evaluationId: string;
      /** The calls waiting for a person; resume with `EvaluationQueue.resume`. */
      readonly pending: readonly PendingCallSummary[];
    };

/** What a job reports through BullMQ's progress events while it runs. */
export interface EvaluationJobProgress {
  /** The evaluation's id. */
  readonly evaluationId: string;
  /** The turn being worked on (0 first). */
  readonly turn: number;
  /** Tool calls recorded so far by this run. */
  readonly toolCalls: number;
  /** The names of the calls recorded last. */
  readonly lastCalls: readonly string[];
}
