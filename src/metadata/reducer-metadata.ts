import {
  getOwnMetadata,
  mergeOverClassChain,
  metadataKeys,
  updateOwnMetadata,
} from './metadata-store.js';
import type { Class } from '../core/class-type.js';

/** Event class → name of the method that reduces it. @internal */
export type ReducerMethods = ReadonlyMap<Class, string | symbol>;

/** The methods declared directly on `target` (not inherited). @internal */
export function readOwnReducerMethods(target: object): ReducerMethods {
  return getOwnMetadata<ReducerMethods>(target, metadataKeys.reducers) ?? new Map();
}

/** Records that `method` of the class `target` reduces `eventType`. @internal */
export function recordReducerMethod(
  target: object,
  eventType: Class,
  method: string | symbol,
): void {
  updateOwnMetadata<ReducerMethods>(
    target,
    metadataKeys.reducers,
    () => new Map(),
    (current) => new Map(current).set(eventType, method),
  );
}

/**
 * The reducer methods of a state class, a subclass's own method for an event
 * replacing the one it inherits. Empty when there are none. @internal
 */
export function readReducerMethods(cls: Class): ReducerMethods {
  return mergeOverClassChain(cls, (c) => readOwnReducerMethods(c));
}
