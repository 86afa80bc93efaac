/**
 * Something that can capture its state and later return to it: the session,
 * the in-memory filesystem, or any resource. Transactions snapshot every
 * participant before a tool call and restore them all if it fails.
 */
export interface Snapshotable<S = unknown> {
  /** Captures the current state; must be cheap, as it runs before every tool call. */
  snapshot(): S;
  /** Returns to a state captured by `snapshot()`. */
  restore(snapshot: S): void;
}

/** Whether `value` implements {@link Snapshotable}. */
export function isSnapshotable(value: unknown): value is Snapshotable {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<Snapshotable>).snapshot === 'function' &&
    typeof (value as Partial<Snapshotable>).restore === 'function'
  );
}
