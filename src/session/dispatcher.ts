import type { DispatchResult } from './dispatch-result.js';
import type { EventHandler, EventType } from './event-type.js';

/** Delivers events to subscribers. The session forwards every event it reduces to one. */
export interface Dispatcher {
  /** Calls `handler` for every event whose class is exactly `type`; returns a function that unsubscribes. */
  subscribe<E extends object>(type: EventType<E>, handler: EventHandler<E>): () => boolean;
  /** Removes `handler` from `type`; `false` when it was not subscribed. */
  unsubscribe<E extends object>(type: EventType<E>, handler: EventHandler<E>): boolean;
  /** Calls the subscribers of the event's class in order and reports what happened. */
  dispatch<E extends object>(event: E): DispatchResult<E>;
}
