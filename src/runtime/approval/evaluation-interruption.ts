import type { EvaluationState } from './evaluation-state.js';
import type { PendingToolCall } from './pending-tool-call.js';

/** Why and where an evaluation paused: the calls waiting for approval and the state to resume from. */
export interface EvaluationInterruption {
  /** The calls waiting for a decision, in call order. */
  readonly pending: readonly PendingToolCall[];
  /** Plain JSON: save it and pass it back to `runtime.resume` with one decision per pending call. */
  readonly state: EvaluationState;
}
