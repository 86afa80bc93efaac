/**
 * A class whose instances are dispatched as events. Handlers and reducers are
 * matched by the event's exact class: a subclass is a different event type.
 */
export type EventType<E extends object = object> = abstract new (...args: never[]) => E;

/** A synchronous observer of one event type. */
export type EventHandler<E extends object = object> = (event: E) => void;
