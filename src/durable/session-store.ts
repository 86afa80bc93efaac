import type { SessionChange, StoredSession } from './stored-session.js';

/**
 * Where sessions live between processes: a backend that loads a session's
 * slices and commits changes to them atomically under optimistic concurrency.
 * `InMemorySessionStore` keeps them in this process (tests, examples);
 * `PostgresSessionStore` and `RedisSessionStore` keep them in servers the
 * application already runs. Use it through `SessionPersistence`, which turns
 * a `Session` into changes and back. Also the injection token.
 */
export abstract class SessionStore {
  /** The stored session, or `undefined` when none has that id. */
  abstract load(sessionId: string): Promise<StoredSession | undefined>;

  /**
   * Applies `change` atomically when the stored version equals
   * `change.expectedVersion` and returns the new version; otherwise stores
   * nothing and rejects with a `SessionConflictError`.
   */
  abstract commit(change: SessionChange): Promise<number>;

  /** Removes the session and its records; nothing happens when it does not exist. */
  abstract delete(sessionId: string): Promise<void>;
}
