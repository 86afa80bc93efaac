import type { ApprovalDecision } from '../approval/approval-decision.js';
import type { ToolInvoked, ToolOutcome } from '../events/tool-invoked.js';

/**
 * How a tool call ended for an observer: the outcome it was recorded with, or
 * `stopped` (it stopped the evaluation, e.g. at the deadline, and was not
 * recorded), `pending` (it waits for a person's approval) or `deferred` (the
 * turn paused at an earlier call; it runs again on resume).
 */
export type ToolCallEndOutcome = ToolOutcome | 'stopped' | 'pending' | 'deferred';

/** What a {@link ToolCallObserver} learns when its call ends. */
export interface ToolCallEnd {
  /** How the call ended. */
  readonly outcome: ToolCallEndOutcome;
  /** The call's record, when it was recorded (its result, arguments and duration are content). */
  readonly event: ToolInvoked | undefined;
  /** Whether the call's session and resource changes were undone. */
  readonly rolledBack: boolean;
  /** What stopped the evaluation, for outcome `stopped`. */
  readonly error: unknown;
  /** Why the call waits, for outcome `pending` (may quote the arguments). */
  readonly reason: string | undefined;
  /** What the handler threw, for a call that failed so (see `ToolInvoked.thrownBy`). */
  readonly thrown?: unknown;
}

/** Follows one local tool call (see {@link EvaluationObserver.startToolCall}). */
export interface ToolCallObserver {
  /**
   * Runs the call: `invoke` does everything from argument parsing to the
   * handler, which (with any nested evaluation it starts) runs in the
   * observer's async context. Returns what `invoke` returns.
   */
  run<T>(invoke: () => T): T;
  /** The call ended; called exactly once. */
  ended(end: ToolCallEnd): void;
  /**
   * The call waited for a person's approval and got `decision` within the
   * same call (`runtime.callTool` asks its `approve`): called instead of
   * {@link ToolCallObserver.ended} with `pending`. `reason` is why it waited
   * (it may quote the arguments). The decided call then runs through this
   * same observer ({@link ToolCallObserver.run} again), which is ended once,
   * with its outcome. Optional: an observer without it is ended `pending`,
   * and the decided call gets an observer of its own.
   */
  decided?(reason: string, decision: ApprovalDecision): void;
}
