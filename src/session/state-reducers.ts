import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { EventType } from './event-type.js';
import { readReducerMethods } from '../metadata/reducer-metadata.js';
import { deepFreeze } from '../core/deep-freeze.js';
import type { Reducer } from './reducer.js';
import { SliceOp } from './slice-op.js';
import type { SliceType } from './slice-type.js';
import { describeValue } from '../core/describe-value.js';

/**
 * Turns the `@Reducer` methods of `stateClass` into slice reducers. Each takes
 * the slice's latest value (or a frozen `initial()` when the slice is empty),
 * calls the method with the event and replaces the slice with the result. With
 * no state and no `initial`, the event is ignored. @internal
 */
export function stateReducers<T extends object>(
  stateClass: SliceType<T>,
  initial: (() => T) | undefined,
): [EventType, Reducer<T, object>][] {
  const methods = readReducerMethods(stateClass);
  if (methods.size === 0) {
    throw new ConfigurationError({
      subject: `session.install(${stateClass.name})`,
      problem: `${stateClass.name} has no @Reducer methods.`,
      fix: `Decorate the methods that compute the next ${stateClass.name} with @Reducer(EventClass).`,
    });
  }
  return [...methods].map(([eventType, method]) => {
    const name = `${stateClass.name}.${String(method)}`;
    const reducer: Reducer<T, object> = (view, event) => {
      const current = view.latest() ?? (initial === undefined ? undefined : deepFreeze(initial()));
      if (current === undefined) return undefined;
      const fn = (current as Record<string | symbol, unknown>)[method];
      if (typeof fn !== 'function') {
        throw new ConfigurationError({
          subject: name,
          problem: `the current state (${current.constructor.name}) has no method ${String(method)}.`,
          fix: `Keep only ${stateClass.name} instances in the slice and create them with new ${stateClass.name}(...).`,
        });
      }
      const next: unknown = fn.call(current, event);
      if (!(next instanceof stateClass)) {
        throw new ConfigurationError({
          subject: name,
          problem: `returned ${describeValue(next)} instead of the next ${stateClass.name}.`,
          fix: `Return a new ${stateClass.name}; the current state is frozen and cannot be changed in place.`,
        });
      }
      return SliceOp.replace([next]);
    };
    Object.defineProperty(reducer, 'name', { value: name });
    return [eventType as EventType, reducer];
  });
}
