import { ConfigurationError, type JsonValue, SessionConflictError } from '../../index.js';
import { checkSessionId, checkStoredNames } from '../check-stored-names.js';
import { readStoredSession } from '../read-stored-session.js';
import { SessionStore } from '../session-store.js';
import type { SessionChange, StoredSession, StoredSlicePolicy } from '../stored-session.js';
import { checkTablePrefix } from './check-table-prefix.js';
import { KnownSlices } from './known-slices.js';
import type { PostgresPool } from './postgres-pool.js';
import {
  type CommitColumns,
  postgresSessionSql,
  type PostgresSessionSql,
  type SqlQuery,
} from './postgres-session-sql.js';

/** {@link CommitColumns} being filled. */
type WritePlan = { -readonly [K in keyof CommitColumns]: string[] };

/** Options of a {@link PostgresSessionStore}. */
export interface PostgresSessionStoreOptions {
  /** The connection pool, e.g. a `pg.Pool`; the store never ends it. */
  readonly pool: PostgresPool;
  /**
   * The prefix of the store's tables, as given to `applyPostgresMigrations`
   * (default `affordance_`; it must match `^[a-z_][a-z0-9_]{0,40}$`).
   */
  readonly tablePrefix?: string;
  /**
   * Prepare the load and commit statements once per connection (node-postgres
   * named statements: `pool.query({ name, text, values })`) instead of having
   * the server plan them on every call; a commit costs about a third of the
   * time (README, Performance). Default `true`. Write `false` for a pool whose
   * `query` takes only text, or behind a pooler that does not keep prepared
   * statements (PgBouncer in transaction mode before 1.21).
   */
  readonly prepare?: boolean;
}

/**
 * A {@link SessionStore} in PostgreSQL, on the tables created by
 * `applyPostgresMigrations` (or the `affordance-migrate` CLI). A commit is
 * one statement (one round trip, its own transaction) that bumps the session
 * row's version only when it still equals the expected one (so concurrent
 * writers of one session queue on that row and all but one are refused) and
 * writes slices and records only when it did.
 * A load is one statement, hence one consistent snapshot. Values are stored
 * as `json`, which keeps their text exactly.
 *
 * @example
 * ```ts
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * await applyPostgresMigrations(pool);
 * const store = new PostgresSessionStore({ pool });
 * ```
 */
export class PostgresSessionStore extends SessionStore {
  readonly #pool: PostgresPool;
  readonly #sql: PostgresSessionSql;
  readonly #prepare: boolean;
  /** The slice rows known to exist, so an append to them need not upsert them. */
  readonly #known = new KnownSlices();

  constructor(options: PostgresSessionStoreOptions) {
    super();
    this.#sql = postgresSessionSql(
      checkTablePrefix(options.tablePrefix, 'PostgresSessionStore option tablePrefix'),
    );
    this.#pool = options.pool;
    this.#prepare = options.prepare ?? true;
  }

  /** Runs `text` with `values`, as a statement prepared under `name` unless the option `prepare` is off. */
  #run(name: string, text: string, values: readonly unknown[]) {
    return this.#prepare
      ? this.#pool.query({ name, text, values })
      : this.#pool.query(text, values);
  }

  /** {@inheritDoc SessionStore.load} */
  async load(sessionId: string): Promise<StoredSession | undefined> {
    checkSessionId('PostgresSessionStore', sessionId);
    const result = await this.#run(this.#sql.names.load, this.#sql.load, [sessionId]);
    const row = result.rows[0];
    if (row === undefined) {
      this.#known.forget(sessionId);
      return undefined;
    }
    const session = decodeSession(sessionId, row['session']);
    this.#known.loaded(
      sessionId,
      session.version,
      session.slices.map((slice) => [slice.name, slice.policy] as const),
    );
    return session;
  }

  /** {@inheritDoc SessionStore.commit} */
  async commit(change: SessionChange): Promise<number> {
    checkStoredNames('PostgresSessionStore', change);
    const expected = change.expectedVersion;
    if (Number.isSafeInteger(expected) && expected >= 0) {
      const creation = { createdAt: change.createdAt, tags: JSON.stringify(change.tags) };
      const plan = planChange(change);
      const { sessionId } = change;
      const known = this.#known.covers(sessionId, expected, plan.names, plan.policies);
      let result;
      try {
        result = await this.#send(this.#sql.commit(sessionId, expected, creation, plan, known));
      } catch (error) {
        this.#known.forget(sessionId);
        // 23503: a slice row known to exist is gone (the session was deleted and created again
        // elsewhere): the generic statement writes it.
        if (!known || !hasCode(error, '23503')) {
          throw hasCode(error, '23505') ? conflict(change, undefined, error) : error;
        }
        result = await this.#send(this.#sql.commit(sessionId, expected, creation, plan, false));
      }
      const row = result.rows[0];
      if (row !== undefined) {
        const version = Number(row['version']);
        this.#known.committed(sessionId, expected, version, plan.names, plan.policies);
        return version;
      }
      this.#known.forget(sessionId);
    }
    const found = (await this.#pool.query(this.#sql.version, [change.sessionId])).rows[0];
    throw conflict(change, found === undefined ? 0 : Number(found['version']));
  }

  /** Runs a commit statement; a unique violation (23505) of creation is a conflict (see `commit`). */
  #send(query: SqlQuery) {
    return this.#run(query.name, query.text, query.values);
  }

  /** {@inheritDoc SessionStore.delete} */
  async delete(sessionId: string): Promise<void> {
    checkSessionId('PostgresSessionStore', sessionId);
    this.#known.forget(sessionId);
    await this.#pool.query(this.#sql.delete, [sessionId]);
  }
}

/** Mirrors `InMemorySessionStore`: replacements (the last one of a slice wins), then appends, then records. */
function planChange(change: SessionChange): WritePlan {
  const policies = new Map<string, StoredSlicePolicy>();
  const replacements = new Map<string, readonly JsonValue[]>();
  for (const slice of change.replace) {
    policies.set(slice.name, slice.policy);
    replacements.set(slice.name, slice.values);
  }
  const plan: WritePlan = {
    names: [],
    policies: [],
    replaced: [...replacements.keys()],
    valueSlices: [],
    values: [],
    setKeys: [],
    setValues: [],
    deletedKeys: [],
  };
  const add = (name: string, values: readonly JsonValue[]): void => {
    for (const value of values) {
      plan.valueSlices.push(name);
      plan.values.push(JSON.stringify(value));
    }
  };
  for (const [name, values] of replacements) add(name, values);
  for (const slice of change.append) {
    policies.set(slice.name, slice.policy);
    add(slice.name, slice.values);
  }
  for (const [name, policy] of policies) {
    plan.names.push(name);
    plan.policies.push(policy);
  }
  for (const [key, value] of Object.entries(change.records)) {
    if (value === null) plan.deletedKeys.push(key);
    else {
      plan.setKeys.push(key);
      plan.setValues.push(JSON.stringify(value));
    }
  }
  return plan;
}

function decodeSession(sessionId: string, text: unknown): StoredSession {
  if (typeof text !== 'string') {
    throw new ConfigurationError({
      subject: `PostgresSessionStore session ${JSON.stringify(sessionId)}`,
      problem: `loading it returned ${typeof text} instead of JSON text.`,
      fix: 'Pass a pool whose query returns text columns as strings (pg.Pool does).',
    });
  }
  // The server builds this text from json columns (postgres-session-sql.ts), so it parses.
  const row = JSON.parse(text) as Record<string, unknown>;
  return readStoredSession('PostgresSessionStore', sessionId, {
    json: 'decoded',
    version: row['version'],
    createdAt: row['createdAt'],
    tags: row['tags'],
    slices: row['slices'] as [unknown, unknown, JsonValue[]][],
    records: Object.entries(row['records'] as Record<string, JsonValue>),
  });
}

function conflict(change: SessionChange, actual: number | undefined, cause?: unknown) {
  return new SessionConflictError({
    sessionId: change.sessionId,
    expectedVersion: change.expectedVersion,
    actualVersion: actual,
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * Whether `error` is PostgreSQL's `code`: 23505 (unique violation) when two
 * writers created the same session at once (a fallback: creation uses ON
 * CONFLICT), 23503 (foreign key violation) when a slice row is missing.
 */
function hasCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
