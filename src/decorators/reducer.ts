import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { EventType } from '../session/event-type.js';
import { readOwnReducerMethods, recordReducerMethod } from '../metadata/reducer-metadata.js';

/**
 * Marks a method of a state class as the reducer of `eventType`. The method
 * runs with the slice's latest state as `this` (frozen: return a new instance
 * rather than mutating) and the event as its argument, and returns the next
 * state. Install the class with `session.install(StateClass, { initial })`.
 *
 * @example
 * class Counter {
 *   constructor(readonly count = 0) {}
 *   \@Reducer(Incremented) increment(event: Incremented): Counter { return new Counter(this.count + event.by); }
 * }
 */
export function Reducer(eventType: EventType): MethodDecorator {
  return (target, property, descriptor) => {
    const owner = typeof target === 'function' ? target : target.constructor;
    const subject = `${owner.name}.${String(property)}`;
    if (typeof eventType !== 'function') {
      throw new ConfigurationError({
        subject,
        problem: `@Reducer needs an event class, got ${String(eventType)}.`,
        fix: 'Pass the class of the events this method reduces, e.g. @Reducer(ToolInvoked). If it is undefined, check for a circular import.',
      });
    }
    if (typeof target === 'function') {
      throw new ConfigurationError({
        subject,
        problem: '@Reducer cannot decorate a static method.',
        fix: 'Make it an instance method: it runs with the current state as `this`.',
      });
    }
    if (typeof descriptor.value !== 'function') {
      throw new ConfigurationError({
        subject,
        problem: '@Reducer only applies to methods.',
        fix: 'Decorate a method that takes the event and returns the next state.',
      });
    }
    const existing = readOwnReducerMethods(owner).get(eventType);
    if (existing !== undefined) {
      throw new ConfigurationError({
        subject,
        problem: `${owner.name}.${String(existing)} already reduces ${eventType.name}.`,
        fix: `Keep one @Reducer(${eventType.name}) method per state class and merge the two.`,
      });
    }
    recordReducerMethod(owner, eventType, property);
  };
}
