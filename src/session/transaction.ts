import { isThenable } from '../core/is-thenable.js';
import type { Snapshotable } from './snapshotable.js';

/** Options of {@link transaction}. */
export interface TransactionOptions<R> {
  /** Also roll back when the (awaited) result says so, e.g. `(r) => !r.success` for a `ToolResult`. */
  readonly rollbackIf?: (result: Awaited<R>) => boolean;
}

/**
 * Snapshots every participant, runs `fn`, and restores them all (in reverse
 * order) if it throws, rejects or `rollbackIf` says so. Works with sync and
 * async `fn`. Restoring replaces whole state, so two overlapping async
 * transactions on the same participants can undo each other's work: run them
 * one after another.
 */
export function transaction<R>(
  participants: readonly Snapshotable[],
  fn: () => R,
  options: TransactionOptions<R> = {},
): R {
  const captured = participants.map((participant) => ({
    participant,
    snapshot: participant.snapshot(),
  }));
  const rollback = (cause?: { error: unknown }): void => {
    const errors: unknown[] = [];
    for (const { participant, snapshot } of captured.reverse()) {
      try {
        participant.restore(snapshot);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) {
      throw new AggregateError(
        cause === undefined ? errors : [cause.error, ...errors],
        `Transaction rollback failed: ${errors.length} participant(s) could not be restored` +
          (cause === undefined ? '.' : ' after the transaction failed.'),
      );
    }
  };
  const settle = (value: Awaited<R>): Awaited<R> => {
    let undo: boolean;
    try {
      undo = options.rollbackIf?.(value) ?? false;
    } catch (error) {
      rollback({ error });
      throw error;
    }
    if (undo) rollback();
    return value;
  };

  let result: R;
  try {
    result = fn();
  } catch (error) {
    rollback({ error });
    throw error;
  }
  if (isThenable(result)) {
    return Promise.resolve(result).then(
      (value) => settle(value as Awaited<R>),
      (error: unknown) => {
        rollback({ error });
        throw error;
      },
    ) as R;
  }
  return settle(result as Awaited<R>);
}
