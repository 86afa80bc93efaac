import { SessionConflictError, type JsonValue, type Session } from '../index.js';
import type { DurableSession } from './durable-session.js';
import type { SessionPersistence } from './session-persistence.js';

/** Options of {@link commitWithRetry}. */
export interface CommitWithRetryOptions {
  /** How many times to try; 5 by default. */
  readonly attempts?: number | undefined;
  /** Installs state classes and reducers on each loaded session. */
  readonly setup?: ((session: Session) => void) | undefined;
  /** Records to commit with the change, computed from the loaded session. */
  readonly records?:
    ((durable: DurableSession) => Readonly<Record<string, JsonValue | null>>) | undefined;
}

/**
 * Opens `sessionId`, applies `change` to it and commits; when another writer
 * committed first, opens it again and reapplies `change` to the newer session,
 * up to `attempts` times. `change` must be safe to run again (it reads the
 * session as loaded, and writes only to it). Returns the committed session.
 * @throws SessionConflictError after the last attempt, saying how many were made.
 */
export async function commitWithRetry(
  persistence: SessionPersistence,
  sessionId: string,
  change: (durable: DurableSession, attempt: number) => void | Promise<void>,
  options: CommitWithRetryOptions = {},
): Promise<DurableSession> {
  const attempts = options.attempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    const durable = await persistence.open(sessionId, { setup: options.setup });
    await change(durable, attempt);
    try {
      await durable.commit({ records: options.records?.(durable) });
      return durable;
    } catch (error) {
      if (!SessionConflictError.is(error) || attempt >= attempts) {
        if (SessionConflictError.is(error)) {
          throw new SessionConflictError({
            sessionId,
            expectedVersion: error.expectedVersion,
            actualVersion: error.actualVersion,
            attempts,
            cause: error,
          });
        }
        throw error;
      }
    }
  }
}
