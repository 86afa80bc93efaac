import { ConfigurationError, type JsonValue, SessionConflictError } from '../../index.js';
import { checkSessionId, checkStoredNames } from '../check-stored-names.js';
import { readStoredSession } from '../read-stored-session.js';
import { SessionStore } from '../session-store.js';
import type { SessionChange, StoredSession, StoredSlicePolicy } from '../stored-session.js';
import { checkTablePrefix } from './check-table-prefix.js';
import type { PostgresClient, PostgresPool } from './postgres-pool.js';
import { rollbackQuietly } from './rollback-quietly.js';
import { postgresSessionSql, type PostgresSessionSql } from './postgres-session-sql.js';

/** Options of a {@link PostgresSessionStore}. */
export interface PostgresSessionStoreOptions {
  /** The connection pool, e.g. a `pg.Pool`; the store never ends it. */
  readonly pool: PostgresPool;
  /**
   * The prefix of the store's tables, as given to `applyPostgresMigrations`
   * (default `affordance_`; it must match `^[a-z_][a-z0-9_]{0,40}$`).
   */
  readonly tablePrefix?: string;
}

/**
 * A {@link SessionStore} in PostgreSQL, on the tables created by
 * `applyPostgresMigrations` (or the `affordance-migrate` CLI). A commit is
 * one transaction that first bumps the session row's version only when it
 * still equals the expected one (so concurrent writers of one session queue
 * on that row and all but one are refused), then writes slices and records.
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

  constructor(options: PostgresSessionStoreOptions) {
    super();
    this.#sql = postgresSessionSql(
      checkTablePrefix(options.tablePrefix, 'PostgresSessionStore option tablePrefix'),
    );
    this.#pool = options.pool;
  }

  /** {@inheritDoc SessionStore.load} */
  async load(sessionId: string): Promise<StoredSession | undefined> {
    checkSessionId('PostgresSessionStore', sessionId);
    const result = await this.#pool.query(this.#sql.load, [sessionId]);
    const row = result.rows[0];
    return row === undefined ? undefined : decodeSession(sessionId, row['session']);
  }

  /** {@inheritDoc SessionStore.commit} */
  async commit(change: SessionChange): Promise<number> {
    checkStoredNames('PostgresSessionStore', change);
    const client = await this.#pool.connect();
    let broken: Error | undefined;
    try {
      return await this.#commitOn(client, change);
    } catch (error) {
      broken = await rollbackQuietly(client);
      throw isUniqueViolation(error) ? conflict(change, undefined, error) : error;
    } finally {
      client.release(broken);
    }
  }

  /** {@inheritDoc SessionStore.delete} */
  async delete(sessionId: string): Promise<void> {
    checkSessionId('PostgresSessionStore', sessionId);
    await this.#pool.query(this.#sql.delete, [sessionId]);
  }

  async #commitOn(client: PostgresClient, change: SessionChange): Promise<number> {
    await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
    const version = await this.#claim(client, change);
    if (version === undefined) {
      const found = (await client.query(this.#sql.version, [change.sessionId])).rows[0];
      throw conflict(change, found === undefined ? 0 : Number(found['version']));
    }
    await this.#write(client, change.sessionId, planChange(change));
    await client.query('COMMIT');
    return version;
  }

  /** Creates the session or bumps its version; `undefined` when the expected version is not the stored one. */
  async #claim(client: PostgresClient, change: SessionChange): Promise<number | undefined> {
    const expected = change.expectedVersion;
    if (!Number.isSafeInteger(expected) || expected < 0) return undefined;
    const result =
      expected === 0
        ? await client.query(this.#sql.create, [
            change.sessionId,
            change.createdAt,
            JSON.stringify(change.tags),
          ])
        : await client.query(this.#sql.bump, [change.sessionId, expected]);
    const row = result.rows[0];
    return row === undefined ? undefined : Number(row['version']);
  }

  async #write(client: PostgresClient, sessionId: string, plan: WritePlan): Promise<void> {
    const sql = this.#sql;
    if (plan.names.length > 0) {
      await client.query(sql.upsertSlices, [sessionId, plan.names, plan.policies]);
    }
    if (plan.replaced.length > 0) await client.query(sql.clearSlices, [sessionId, plan.replaced]);
    if (plan.values.length > 0) {
      await client.query(sql.insertValues, [sessionId, plan.valueSlices, plan.values]);
    }
    if (plan.setKeys.length > 0) {
      await client.query(sql.upsertRecords, [sessionId, plan.setKeys, plan.setValues]);
    }
    if (plan.deletedKeys.length > 0) {
      await client.query(sql.deleteRecords, [sessionId, plan.deletedKeys]);
    }
  }
}

/** A change as the columns of set-based statements. */
interface WritePlan {
  /** Every slice written, once each, in the order first met (replaced ones first). */
  readonly names: string[];
  /** The policy of each of `names`: the last one given. */
  readonly policies: StoredSlicePolicy[];
  /** The slices replaced: their values are removed before `values` are added. */
  readonly replaced: string[];
  /** The slice of each of `values`. */
  readonly valueSlices: string[];
  /** Values to add, as JSON text, in order (replacements, then appends). */
  readonly values: string[];
  readonly setKeys: string[];
  readonly setValues: string[];
  readonly deletedKeys: string[];
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

/** 23505: two writers created the same session at once (a fallback: creation uses ON CONFLICT). */
function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505'
  );
}
