import { randomId } from '../../core/random-id.js';
import { ConfigurationError } from '../../core/errors/configuration-error.js';

/** Identity fields every telemetry event carries; both default when left out. */
export interface EventStampInit {
  /** Unique id of the event; a random UUID by default. Pass one only when replaying events. */
  readonly eventId?: string | undefined;
  /** When the event happened; now by default. */
  readonly createdAt?: Date | undefined;
}

/** Context fields shared by the prompt telemetry events. */
export interface PromptEventInit extends EventStampInit {
  /** The prompt's name (`ns/key` unless it was given one). */
  readonly promptName: string;
  /** The prompt's namespace. */
  readonly promptNs: string;
  /** The prompt's key. */
  readonly promptKey: string;
  /** The adapter that ran the evaluation, e.g. `openai`. */
  readonly adapter: string;
  /** Id of the session the evaluation used, if any. */
  readonly sessionId?: string | undefined;
  /** Id of the evaluation, shared by every event it emits. */
  readonly evaluationId?: string | undefined;
}

/** The stamp of the last event made without a `createdAt`. */
let lastStamp: Date | undefined;

/**
 * Now, as a frozen `Date`, shared by the events made in the same millisecond:
 * a `Date` takes 96 bytes on the heap, as much as half the rest of a call's
 * record, and the calls of one turn are often recorded within a millisecond.
 */
function stampNow(): Date {
  const now = Date.now();
  if (lastStamp?.getTime() !== now) lastStamp = Object.freeze(new Date(now));
  return lastStamp;
}

/**
 * Base class of the prompt telemetry events (`PromptRendered`, `ToolInvoked`,
 * `PromptExecuted`): identity, time and the evaluation they belong to.
 * Subclasses freeze themselves once built.
 */
export abstract class PromptEvent {
  /** Unique id of this event. */
  readonly eventId: string;
  /** When the event happened. */
  readonly createdAt: Date;
  /** The prompt's name. */
  readonly promptName: string;
  /** The prompt's namespace. */
  readonly promptNs: string;
  /** The prompt's key. */
  readonly promptKey: string;
  /** The adapter that ran the evaluation. */
  readonly adapter: string;
  /** Id of the session the evaluation used, if any. */
  readonly sessionId: string | undefined;
  /** Id of the evaluation. */
  readonly evaluationId: string | undefined;

  protected constructor(init: PromptEventInit) {
    const eventId = init.eventId ?? randomId();
    if (typeof eventId !== 'string' || eventId === '') {
      throw new ConfigurationError({
        subject: `${new.target.name}.eventId`,
        problem: 'must be a non-empty string.',
        fix: 'Leave eventId out to get a random UUID.',
      });
    }
    const given = init.createdAt;
    const createdAt = given === undefined ? stampNow() : new Date(given.getTime());
    if (given !== undefined && Number.isNaN(createdAt.getTime())) {
      throw new ConfigurationError({
        subject: `${new.target.name}.createdAt`,
        problem: 'is an invalid Date.',
        fix: 'Pass a valid Date, or leave createdAt out to use the current time.',
      });
    }
    this.eventId = eventId;
    // Frozen here, so the session need not walk it when it stores the event.
    this.createdAt = given === undefined ? createdAt : Object.freeze(createdAt);
    this.promptName = init.promptName;
    this.promptNs = init.promptNs;
    this.promptKey = init.promptKey;
    this.adapter = init.adapter;
    this.sessionId = init.sessionId;
    this.evaluationId = init.evaluationId;
  }
}
