import type { ProviderToolCall } from '../provider/conversation.js';
import type { EvaluationState } from './approval/evaluation-state.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';

/**
 * Receives the points an evaluation can be recovered from, so that a process
 * that dies in the middle of one (a worker killed, a machine lost) can resume
 * it without running a recorded tool call twice (`options.checkpoint` of
 * `evaluate`). The runtime awaits each method before it goes on, so what the
 * checkpoint stores before returning is what a recovery finds. A method that
 * throws ends the evaluation with that error.
 *
 * The BullMQ worker of `affordance/bullmq` implements it on a durable session:
 * it keeps `turnStarted`'s state and the started call ids as a record of the
 * session and commits the session in `callsRecorded`. Recover with
 * `runtime.evaluate(prompt, { session, resume: { state, decisions: [], recovery: { startedCalls } } })`.
 */
export interface EvaluationCheckpoint {
  /**
   * The model answered with tool calls and none of them has started; `state`
   * (plain JSON, like an interrupted evaluation's) resumes the evaluation from
   * here. Also called when a resumed evaluation starts, with the calls it has left.
   */
  turnStarted?(state: EvaluationState): Promise<void> | void;
  /** These calls are about to start: their handlers may run as soon as this returns. */
  callsStarting?(calls: readonly ProviderToolCall[]): Promise<void> | void;
  /** These calls ended and their `ToolInvoked` events are in the session, with what they changed. */
  callsRecorded?(outcomes: readonly ToolCallOutcome[]): Promise<void> | void;
}
