import { SliceOp } from './slice-op.js';
import type { SliceView } from './slice-view.js';

/** Ledger reducer: appends every event to the slice. The default for events without reducers. */
export function appendAll<T extends object>(_view: SliceView<T>, event: T): SliceOp<T> {
  return SliceOp.append(event);
}
