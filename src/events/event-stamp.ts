import { randomUUID } from 'node:crypto';

import { ConfigurationError } from '../errors/configuration-error.js';

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

/** Resolves the event id and creation time of a new event. @internal */
export function stampEvent(
  type: string,
  init: EventStampInit,
): { eventId: string; createdAt: Date } {
  const eventId = init.eventId ?? randomUUID();
  if (typeof eventId !== 'string' || eventId === '') {
    throw new ConfigurationError({
      subject: `${type}.eventId`,
      problem: 'must be a non-empty string.',
      fix: 'Leave eventId out to get a random UUID.',
    });
  }
  const createdAt = init.createdAt === undefined ? new Date() : new Date(init.createdAt.getTime());
  if (Number.isNaN(createdAt.getTime())) {
    throw new ConfigurationError({
      subject: `${type}.createdAt`,
      problem: 'is an invalid Date.',
      fix: 'Pass a valid Date, or leave createdAt out to use the current time.',
    });
  }
  return { eventId, createdAt };
}
