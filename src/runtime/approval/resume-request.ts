import type { ApprovalDecision } from './approval-decision.js';
import type { EvaluationState } from './evaluation-state.js';

/** What `evaluate` is asked to resume (`options.resume`): a saved state and a person's decisions. */
export interface ResumeRequest {
  /** The state an interrupted evaluation returned (as saved, e.g. read back with `JSON.parse`). */
  readonly state: EvaluationState;
  /** One decision per pending call. */
  readonly decisions: readonly ApprovalDecision[];
  /**
   * Set when the state comes from an `EvaluationCheckpoint` of a process
   * that died, rather than from an approval pause: the session may hold calls
   * of the turn recorded after the state was saved (they are not run again,
   * their recorded results go back to the model), and `startedCalls` lists the
   * calls that had started (a started call with no record gets one with
   * outcome `unknown`, and the model reads that it may or may not have taken
   * effect). The session's version is not compared.
   */
  readonly recovery?: EvaluationRecovery | undefined;
}

/** What a recovering evaluation knows about the calls that were running when its process died. */
export interface EvaluationRecovery {
  /** Ids of the calls the checkpoint saw start (`callsStarting`). */
  readonly startedCalls: readonly string[];
}
