import { ConfigurationError } from '../core/errors/configuration-error.js';
import { describeValue } from '../core/describe-value.js';

/** `sessionId` when it is a non-empty string, as a `Session` needs. @internal */
export function checkSessionId(sessionId: unknown): string {
  if (typeof sessionId !== 'string' || sessionId === '') {
    throw new ConfigurationError({
      subject: 'Session.sessionId',
      problem: 'must be a non-empty string.',
      fix: 'Leave sessionId out to get a random UUID.',
    });
  }
  return sessionId;
}

/** A copy of `createdAt` when it is a valid `Date`, as a `Session` needs. @internal */
export function checkCreatedAt(createdAt: unknown): Date {
  if (!(createdAt instanceof Date) || Number.isNaN(createdAt.getTime())) {
    throw new ConfigurationError({
      subject: 'Session.createdAt',
      problem: 'must be a valid Date.',
      fix: 'Pass a valid Date, or leave createdAt out to use the current time.',
    });
  }
  return new Date(createdAt.getTime());
}

/** Refuses a slice key that is not a class: slices are keyed by class. @internal */
export function checkSliceType(type: unknown, subject: string): void {
  if (typeof type !== 'function') {
    throw new ConfigurationError({
      subject,
      problem: `expected a class, got ${describeValue(type)}.`,
      fix: 'Slices are keyed by class: pass the class itself, e.g. session.slice(Plan).',
    });
  }
}
