import type { SliceOp } from './slice-op.js';
import type { SessionView, SliceView } from './slice-view.js';

/** What a reducer receives besides its slice and the event. */
export interface ReducerContext {
  /** Read-only access to the rest of the session. */
  readonly session: SessionView;
}

/**
 * A pure, synchronous function from a slice and an event to the change to
 * make. It reads frozen values (mutating them throws a `TypeError`, recorded as
 * a reducer failure) and returns a {@link SliceOp}, or `undefined` for no change.
 */
export type Reducer<T extends object, E extends object> = (
  view: SliceView<T>,
  event: E,
  context: ReducerContext,
) => SliceOp<T> | undefined;
