import type { SlicePolicy } from './slice-policy.js';
import type { SliceType } from './slice-type.js';

/** Read-only access to one slice. Its values are frozen. */
export interface SliceView<T extends object> extends Iterable<T> {
  /** The class the slice is keyed by. */
  readonly type: SliceType<T>;
  /** Number of values. */
  readonly size: number;
  /** Whether the slice rolls back on restore (`state`) or is kept (`log`). */
  readonly policy: SlicePolicy;
  /** Every value, oldest first, as a frozen array. */
  all(): readonly T[];
  /** The newest value, or `undefined` when the slice is empty. */
  latest(): T | undefined;
  /** The value at `index` (negative counts from the end), or `undefined`. */
  at(index: number): T | undefined;
  /** The values for which `predicate` holds, oldest first. */
  where(predicate: (value: T) => boolean): readonly T[];
}

/** Read-only access to a whole session, as reducers receive it. */
export interface SessionView {
  /** The session's id. */
  readonly sessionId: string;
  /** The session's tags. */
  readonly tags: Readonly<Record<string, string>>;
  /** Read-only access to the slice keyed by `type`. */
  slice<T extends object>(type: SliceType<T>): SliceView<T>;
}
