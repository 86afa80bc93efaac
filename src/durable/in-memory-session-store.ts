import { type JsonValue, SessionConflictError } from '../index.js';
import { checkSessionId, checkStoredNames } from './check-stored-names.js';
import { SessionStore } from './session-store.js';
import type { SessionChange, StoredSession, StoredSlice } from './stored-session.js';

interface Entry {
  readonly sessionId: string;
  version: number;
  readonly createdAt: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly slices: Map<string, { policy: StoredSlice['policy']; values: string[] }>;
  readonly records: Map<string, string>;
}

/**
 * A {@link SessionStore} in this process's memory: the default for tests and
 * examples. Values are kept as JSON text, so what it returns never shares
 * objects with what was committed, exactly as with a server.
 */
export class InMemorySessionStore extends SessionStore {
  readonly #sessions = new Map<string, Entry>();

  /** {@inheritDoc SessionStore.load} */
  load(sessionId: string): Promise<StoredSession | undefined> {
    const refused = refusal(() => {
      checkSessionId('InMemorySessionStore', sessionId);
    });
    if (refused !== undefined) return refused;
    const entry = this.#sessions.get(sessionId);
    if (entry === undefined) return Promise.resolve(undefined);
    const slices: StoredSlice[] = [];
    for (const [name, slice] of entry.slices) {
      const values = slice.values.map((text) => JSON.parse(text) as JsonValue);
      if (values.length > 0) slices.push({ name, policy: slice.policy, values });
    }
    // Built from entries, so a record named `__proto__` stays a record.
    const records = Object.fromEntries(
      [...entry.records].map(([key, text]) => [key, JSON.parse(text) as JsonValue]),
    );
    return Promise.resolve({
      sessionId: entry.sessionId,
      version: entry.version,
      createdAt: entry.createdAt,
      tags: { ...entry.tags },
      slices,
      records,
    });
  }

  /** {@inheritDoc SessionStore.commit} */
  commit(change: SessionChange): Promise<number> {
    // The same names as the server stores accept, so code tested here runs there.
    const refused = refusal(() => {
      checkStoredNames('InMemorySessionStore', change);
    });
    if (refused !== undefined) return refused;
    const entry = this.#sessions.get(change.sessionId);
    const actual = entry?.version ?? 0;
    if (actual !== change.expectedVersion) {
      return Promise.reject(
        new SessionConflictError({
          sessionId: change.sessionId,
          expectedVersion: change.expectedVersion,
          actualVersion: actual,
        }),
      );
    }
    const target: Entry = entry ?? {
      sessionId: change.sessionId,
      version: 0,
      createdAt: change.createdAt,
      tags: { ...change.tags },
      slices: new Map(),
      records: new Map(),
    };
    for (const slice of change.replace) {
      target.slices.set(slice.name, { policy: slice.policy, values: encodeAll(slice.values) });
    }
    for (const slice of change.append) {
      const stored = target.slices.get(slice.name);
      if (stored === undefined) {
        target.slices.set(slice.name, { policy: slice.policy, values: encodeAll(slice.values) });
      } else {
        stored.values.push(...encodeAll(slice.values));
        stored.policy = slice.policy;
      }
    }
    for (const [key, value] of Object.entries(change.records)) {
      if (value === null) target.records.delete(key);
      else target.records.set(key, JSON.stringify(value));
    }
    target.version = actual + 1;
    this.#sessions.set(change.sessionId, target);
    return Promise.resolve(target.version);
  }

  /** {@inheritDoc SessionStore.delete} */
  delete(sessionId: string): Promise<void> {
    const refused = refusal(() => {
      checkSessionId('InMemorySessionStore', sessionId);
    });
    if (refused !== undefined) return refused;
    this.#sessions.delete(sessionId);
    return Promise.resolve();
  }
}

function encodeAll(values: readonly JsonValue[]): string[] {
  return values.map((value) => JSON.stringify(value));
}

/** What `check` threw, as a rejected promise; `undefined` when it passed. */
function refusal(check: () => void): Promise<never> | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
