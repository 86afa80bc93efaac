import { ConfigurationError, SessionConflictError } from '../../index.js';
import { checkSessionId, checkStoredNames } from '../check-stored-names.js';
import { SessionStore } from '../session-store.js';
import { damagedSession, readStoredSession } from '../read-stored-session.js';
import type { SessionChange, StoredSession } from '../stored-session.js';
import { commitScript, deleteScript, loadScript } from './redis-session-scripts.js';
import type { RedisScriptClient } from './redis-script-client.js';
import { redisScript, runScript } from './run-script.js';

const scripts = {
  load: redisScript(loadScript),
  commit: redisScript(commitScript),
  delete: redisScript(deleteScript),
};

/** Options of a {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** The client, e.g. `new Redis(url)` from ioredis; the store never closes it. */
  readonly client: RedisScriptClient;
  /**
   * Starts every key of the store (default `affordance:`): letters, digits and
   * `_ . : / -`, 1 to 64 of them. Stores with different prefixes share nothing.
   */
  readonly keyPrefix?: string;
}

const keyPrefixPattern = /^[A-Za-z0-9_.:/-]{1,64}$/;

/**
 * A {@link SessionStore} in Redis. Load, commit and delete are each one Lua
 * script, so each is atomic and a commit is checked against the stored
 * version and applied (or refused) in one step. A session's keys are
 * `<prefix>{<sessionId>}:meta` (version, creation, slice names),
 * `<prefix>{<sessionId>}:records` and one list per slice whose items are the
 * values as JSON text; the hash tag `{<sessionId>}` puts them in one slot, so
 * the store works on Redis Cluster (session ids that are empty or start with
 * `}` have no usable hash tag there). Keys never expire; `delete` removes them.
 *
 * @example
 * ```ts
 * const store = new RedisSessionStore({ client: new Redis(process.env.REDIS_URL) });
 * ```
 */
export class RedisSessionStore extends SessionStore {
  readonly #client: RedisScriptClient;
  readonly #prefix: string;

  constructor(options: RedisSessionStoreOptions) {
    super();
    this.#prefix = checkKeyPrefix(options.keyPrefix);
    this.#client = options.client;
  }

  /** {@inheritDoc SessionStore.load} */
  async load(sessionId: string): Promise<StoredSession | undefined> {
    checkSessionId('RedisSessionStore', sessionId);
    const reply = await runScript(this.#client, scripts.load, 2, this.#keys(sessionId));
    return decodeLoad(sessionId, reply);
  }

  /** {@inheritDoc SessionStore.commit} */
  async commit(change: SessionChange): Promise<number> {
    checkStoredNames('RedisSessionStore', change);
    const reply = await runScript(this.#client, scripts.commit, 2, [
      ...this.#keys(change.sessionId),
      ...encodeChange(change),
    ]);
    const [applied, version] = expectArray(reply, 2, change.sessionId) as [unknown, unknown];
    if (applied === 1) return Number(version);
    throw new SessionConflictError({
      sessionId: change.sessionId,
      expectedVersion: change.expectedVersion,
      actualVersion: Number(version),
    });
  }

  /** {@inheritDoc SessionStore.delete} */
  async delete(sessionId: string): Promise<void> {
    checkSessionId('RedisSessionStore', sessionId);
    await runScript(this.#client, scripts.delete, 2, this.#keys(sessionId));
  }

  #keys(sessionId: string): [string, string] {
    const base = `${this.#prefix}{${sessionId}}:`;
    return [`${base}meta`, `${base}records`];
  }
}

function checkKeyPrefix(prefix: string | undefined): string {
  const chosen = prefix ?? 'affordance:';
  if (keyPrefixPattern.test(chosen)) return chosen;
  throw new ConfigurationError({
    subject: 'RedisSessionStore option keyPrefix',
    problem: `${JSON.stringify(chosen)} is not a usable key prefix: it must match ${String(keyPrefixPattern)} (no braces, which would break the {sessionId} hash tag, and no spaces).`,
    fix: 'Pass a prefix such as "myapp:sessions:" or leave keyPrefix out to use "affordance:".',
  });
}

/** The ARGV of the commit script (see redis-session-scripts.ts). */
function encodeChange(change: SessionChange): string[] {
  const args = [String(change.expectedVersion), change.createdAt, JSON.stringify(change.tags)];
  for (const slices of [change.replace, change.append]) {
    args.push(String(slices.length));
    for (const slice of slices) {
      args.push(slice.name, slice.policy, String(slice.values.length));
      for (const value of slice.values) args.push(JSON.stringify(value));
    }
  }
  const records = Object.entries(change.records);
  args.push(String(records.length));
  for (const [key, value] of records) args.push(key, value === null ? '' : JSON.stringify(value));
  return args;
}

function decodeLoad(sessionId: string, reply: unknown): StoredSession | undefined {
  if (reply === null) return undefined;
  const subject = `RedisSessionStore session ${JSON.stringify(sessionId)}`;
  // The script answers a damaged part with the server's error text (see loadScript).
  if (typeof reply === 'string')
    throw damagedSession(subject, `its meta hash is unreadable: ${reply}.`);
  const [version, createdAt, tags, slices, records] = expectArray(reply, 5, sessionId) as [
    unknown,
    unknown,
    unknown,
    [unknown, unknown, string[] | string][] | string,
    string[] | string,
  ];
  if (typeof slices === 'string')
    throw damagedSession(subject, `has slice ${slices}, not a number.`);
  if (typeof records === 'string') {
    throw damagedSession(subject, `has records that are unreadable: ${records}.`);
  }
  for (const [name, , values] of slices) {
    if (typeof values === 'string') {
      const slice = `${subject}, slice ${JSON.stringify(name)}`;
      throw damagedSession(slice, `has values that are unreadable: ${values}.`);
    }
  }
  const entries: [string, string][] = [];
  for (let index = 0; index + 1 < records.length; index += 2) {
    entries.push([records[index] as string, records[index + 1] as string]);
  }
  return readStoredSession('RedisSessionStore', sessionId, {
    json: 'text',
    version,
    createdAt,
    tags,
    slices: slices as [unknown, unknown, string[]][],
    records: entries,
  });
}

function expectArray(reply: unknown, length: number, sessionId: string): unknown[] {
  if (Array.isArray(reply) && reply.length === length) return reply as unknown[];
  // JSON.stringify answers undefined for undefined and functions.
  const shown = JSON.stringify(reply) as string | undefined;
  throw new Error(
    `RedisSessionStore: the server's reply for session ${sessionId} is not the ${length}-item array the script returns (got ${(shown ?? String(reply)).slice(0, 200)}). Fix: pass an ioredis client, or one whose eval returns Lua tables as arrays.`,
  );
}
