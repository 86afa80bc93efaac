import { SliceOp } from './slice-op.js';
import type { SliceView } from './slice-view.js';

/** Keeps only the newest event: the slice always holds at most one value. */
export function replaceLatest<T extends object>(_view: SliceView<T>, event: T): SliceOp<T> {
  return SliceOp.replace([event]);
}
