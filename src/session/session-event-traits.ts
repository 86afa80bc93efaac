import { deepFreeze } from '../core/deep-freeze.js';
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
  /**
   * Every value the event holds that is not a primitive. When given, the
   * session freezes the event itself and deep-freezes only these, instead of
   * walking every field of the event (which reads a property descriptor per
   * field: most of the cost of recording a tool call). An event class that
   * declares it must list every object it holds.
   */
  readonly contents?: (event: E) => readonly unknown[];
}

/** The traits `type` declares itself (inherited ones do not count), if any. */
export function sessionTraitsOf(type: EventType): SessionEventTraits | undefined {
  return Object.hasOwn(type, 'sessionTraits')
    ? (type as unknown as { readonly sessionTraits: SessionEventTraits }).sessionTraits
    : undefined;
}

/**
 * Deep-freezes a value the session stores: an event whose class declares its
 * `contents` is frozen itself and only those are walked; anything else is
 * walked whole (see `deepFreeze`). @internal
 */
export function freezeStored<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const contents = sessionTraitsOf(value.constructor as EventType)?.contents;
  if (contents === undefined) return deepFreeze(value);
  Object.freeze(value);
  for (const item of contents(value)) deepFreeze(item);
  return value;
}
