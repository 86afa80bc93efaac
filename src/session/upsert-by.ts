import type { Reducer } from './reducer.js';
import { SliceOp } from './slice-op.js';

/**
 * A reducer that removes every value with the event's key and appends the
 * event, so the slice holds one value per key, most recently updated last.
 *
 * @example session.slice(Task).register(Task, upsertBy((task) => task.id));
 */
export function upsertBy<T extends object>(key: (value: T) => unknown): Reducer<T, T> {
  const upsert: Reducer<T, T> = (view, event) => {
    const wanted = key(event);
    return SliceOp.replace([...view.where((value) => !Object.is(key(value), wanted)), event]);
  };
  return upsert;
}
