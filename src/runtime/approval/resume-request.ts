import type { ApprovalDecision } from './approval-decision.js';
import type { EvaluationState } from './evaluation-state.js';

/** What `evaluate` is asked to resume (`options.resume`): a saved state and a person's decisions. */
export interface ResumeRequest {
  /** The state an interrupted evaluation returned (as saved, e.g. read back with `JSON.parse`). */
  readonly state: EvaluationState;
  /** One decision per pending call. */
  readonly decisions: readonly ApprovalDecision[];
}
