import type { HeldCall, Invocation } from '../call-ending.js';
import type { ToolCallObserver } from './tool-call-observer.js';

/** Ends the observer of a call that stopped the evaluation before it could be recorded. @internal */
export function endStoppedCall(
  observer: ToolCallObserver | undefined,
  invocation: Extract<Invocation, { kind: 'stopped' }>,
): void {
  observer?.ended({
    outcome: 'stopped',
    event: undefined,
    rolledBack: false,
    error: invocation.error,
    reason: undefined,
  });
}

/**
 * Ends the observers of a batch's calls from `firstHeld` on, where the turn
 * paused: the pending calls wait for approval, the others (read-only calls
 * that ran beside them) run again on resume. @internal
 */
export function endHeldCalls(
  observed: readonly (ToolCallObserver | undefined)[],
  held: readonly (Invocation | HeldCall)[],
  firstHeld: number,
): void {
  for (let at = firstHeld; at < held.length; at += 1) {
    const call = held[at] as Invocation | HeldCall;
    const pending = call.kind === 'pending';
    observed[at]?.ended({
      outcome: pending ? 'pending' : 'deferred',
      event: undefined,
      rolledBack: false,
      error: undefined,
      reason: pending ? call.pending.reason : undefined,
    });
  }
}
