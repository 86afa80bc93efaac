import type { Session } from '../../session/session.js';
import type { EvaluationState } from './evaluation-state.js';
import type { PendingToolCall } from './pending-tool-call.js';

/** Why and where an evaluation paused: the calls waiting for approval and the state to resume from. */
export interface EvaluationInterruption {
  /** The calls waiting for a decision, in call order. */
  readonly pending: readonly PendingToolCall[];
  /** Plain JSON: save it and pass it back to `runtime.resume` with one decision per pending call. */
  readonly state: EvaluationState;
  /**
   * The session the evaluation records in (the one passed as `options.session`,
   * or the one the runtime created): resuming needs this session, at the
   * version it has now, so keep it with the state.
   */
  readonly session: Session;
}
