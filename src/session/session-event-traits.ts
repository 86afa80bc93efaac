import type { EventType } from './event-type.js';

/**
 * How a session treats an event class before any configuration. An event
 * class declares its traits as its own `static readonly sessionTraits`; the
 * session reads them from the exact class (a subclass declares its own). The
 * session itself names no event type: this is how the runtime's telemetry
 * events (`ToolInvoked`, `PromptRendered`, `PromptExecuted`) get their
 * defaults.
 */
export interface SessionEventTraits<E extends object = object> {
  /**
   * The event's own slice is a log (`SlicePolicy.Log`) unless a policy is set,
   * and every event is appended to it whatever other reducers are registered.
   */
  readonly logged?: boolean;
  /** Values the session reduces into their own slices after the event (e.g. a tool's successful result). */
  readonly fanOut?: (event: E) => readonly object[];
}

/** The traits `type` declares itself (inherited ones do not count), if any. */
export function sessionTraitsOf(type: EventType): SessionEventTraits | undefined {
  return Object.hasOwn(type, 'sessionTraits')
    ? (type as unknown as { readonly sessionTraits: SessionEventTraits }).sessionTraits
    : undefined;
}
