import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { DispatchFailure } from './dispatch-failure.js';
import { DispatchResult } from './dispatch-result.js';
import type { Dispatcher } from './dispatcher.js';
import type { EventHandler, EventType } from './event-type.js';
import { isThenable } from '../core/is-thenable.js';

/**
 * A synchronous, in-process {@link Dispatcher}. Handlers are matched by the
 * event's exact class and run in subscription order; one that throws is
 * recorded in the result and the rest still run. Handlers must be synchronous:
 * one that returns a promise is recorded as a failure (start async work
 * yourself and handle its errors, e.g. `(e) => { void sink.send(e).catch(log); }`).
 */
export class InProcessDispatcher implements Dispatcher {
  // Arrays are replaced, never mutated, so a dispatch in progress is unaffected by (un)subscribing.
  // Created by the first subscription: a session nobody listens to allocates no map.
  private handlers: Map<EventType, readonly EventHandler<never>[]> | undefined;

  /** Subscribes `handler` to events of exactly `type`; subscribing twice has no effect. */
  subscribe<E extends object>(type: EventType<E>, handler: EventHandler<E>): () => boolean {
    if (typeof type !== 'function' || typeof handler !== 'function') {
      throw new ConfigurationError({
        subject: 'InProcessDispatcher.subscribe',
        problem: 'expected an event class and a handler function.',
        fix: 'Call subscribe(ToolInvoked, (event) => { ... }).',
      });
    }
    const handlers = (this.handlers ??= new Map<EventType, readonly EventHandler<never>[]>());
    const current = handlers.get(type) ?? [];
    if (!current.includes(handler)) {
      handlers.set(type, [...current, handler]);
    }
    return () => this.unsubscribe(type, handler);
  }

  /** Removes `handler` from `type`; `false` when it was not subscribed. */
  unsubscribe<E extends object>(type: EventType<E>, handler: EventHandler<E>): boolean {
    const handlers = this.handlers;
    const current = handlers?.get(type);
    if (handlers === undefined || !current?.includes(handler)) return false;
    const rest = current.filter((h) => h !== handler);
    if (rest.length === 0) handlers.delete(type);
    else handlers.set(type, rest);
    return true;
  }

  /** Calls the subscribers of the event's exact class, in subscription order. */
  dispatch<E extends object>(event: E): DispatchResult<E> {
    const errors: DispatchFailure[] = [];
    const handlersInvoked = this.deliver(event, errors);
    // The handler arrays are replaced on change, never mutated, so the result may keep this one.
    return DispatchResult.adopting({ event, handlersInvoked, errors });
  }

  /**
   * {@link InProcessDispatcher.dispatch} without the result: each failure is
   * pushed to `failures`; returns the handlers called. @internal
   */
  deliver<E extends object>(event: E, failures: DispatchFailure[]): readonly EventHandler<E>[] {
    const handlers = (this.handlers?.get(event.constructor as EventType) ??
      NO_HANDLERS) as readonly EventHandler<E>[];
    for (const handler of handlers) {
      try {
        const returned = (handler as (event: E) => unknown)(event);
        if (isThenable(returned)) {
          // Keep the late rejection from crashing the process; the failure is reported below.
          returned.then(undefined, () => undefined);
          failures.push({ source: 'subscriber', handler, error: asyncHandlerError(handler) });
        }
      } catch (error) {
        failures.push({ source: 'subscriber', handler, error });
      }
    }
    return handlers;
  }

  /** Number of handlers subscribed to exactly `type`. */
  subscriberCount(type: EventType): number {
    return this.handlers?.get(type)?.length ?? 0;
  }
}

const NO_HANDLERS: readonly EventHandler<never>[] = Object.freeze([]);

function asyncHandlerError(handler: (...args: never[]) => unknown): ConfigurationError {
  return new ConfigurationError({
    subject: `Event handler ${handler.name === '' ? '<anonymous>' : handler.name}`,
    problem:
      'returned a promise; event handlers must be synchronous, so its outcome is not awaited.',
    fix: 'Make the handler synchronous and start async work inside it yourself, handling its errors: (e) => { void sink.send(e).catch(log); }.',
  });
}
