import type { Snapshotable } from './snapshotable.js';
import type { TransactionOptions } from './transaction.js';

/** Options of {@link Session.install}. */
export interface InstallOptions<T> {
  /** Builds the state to reduce from while the slice is empty. It does not seed the slice. */
  readonly initial?: () => T;
}

/** Options of {@link Session.restore}. */
export interface RestoreOptions {
  /** Keep LOG slices as they are (default `true`); `false` rolls them back too. */
  readonly preserveLogs?: boolean;
}

/** Options of {@link Session.transaction}. */
export interface SessionTransactionOptions<R> extends TransactionOptions<R> {
  /** Other state rolled back together with the session, e.g. a filesystem or resource context. */
  readonly include?: readonly Snapshotable[];
}
