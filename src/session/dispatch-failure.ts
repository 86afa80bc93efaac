import type { EventType } from './event-type.js';

/** A function that took part in a dispatch: a subscriber or a reducer. */
export type DispatchParticipant = (...args: never[]) => unknown;

/** One handler or reducer that threw while an event was dispatched. */
export interface DispatchFailure {
  /** `subscriber` for a dispatcher handler, `reducer` for a session reducer. */
  readonly source: 'subscriber' | 'reducer';
  /** The function that failed. */
  readonly handler: DispatchParticipant;
  /** What it threw. */
  readonly error: unknown;
  /** For a reducer, the slice it was updating (left unchanged). */
  readonly slice?: EventType | undefined;
}
