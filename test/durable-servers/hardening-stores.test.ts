/**
 * Issue 31, items 10 and 11, on real servers: every store refuses names longer
 * than `MAX_STORED_NAME_LENGTH` with a `ConfigurationError` before the server
 * sees them (PostgreSQL used to answer a 1 MiB session id with its own "index
 * row size exceeds maximum" error), and data damaged in the server (written
 * here with plain commands) loads as a `ConfigurationError` naming the
 * session, slice, value or record, never as a bare `SyntaxError`.
 */
import { Redis } from 'ioredis';
import pg from 'pg';

import { ConfigurationError } from 'affordance';
import {
  InMemorySessionStore,
  MAX_STORED_NAME_LENGTH,
  PostgresSessionStore,
  RedisSessionStore,
  SessionPersistence,
  type SessionStore,
  applyPostgresMigrations,
} from 'affordance/durable';
import { change, log, state } from '../durable/session-change.js';
import { catchRejection } from '../support/catch-error.js';
import { startPostgres, type PostgresServer } from '../support/servers/postgres-server.js';
import { startRedis, type RedisServer } from '../support/servers/redis-server.js';
import {
  describeWithPostgres,
  describeWithRedis,
} from '../support/servers/describe-with-servers.js';

const longest = 'x'.repeat(MAX_STORED_NAME_LENGTH);
const tooLong = 'y'.repeat(MAX_STORED_NAME_LENGTH + 1);
const mebibyte = 'z'.repeat(1024 * 1024);

/** Checks that `store` takes names of the documented length and refuses longer ones, naming what is too long. */
async function checkNameLengths(store: SessionStore, label: string): Promise<void> {
  // At the cap, every name is stored and loads back.
  await store.commit(
    change(longest, 0, { append: [log(longest, 1)], records: { [longest]: true } }),
  );
  const loaded = await store.load(longest);
  expect(loaded?.slices).toEqual([log(longest, 1)]);
  expect(loaded?.records).toEqual({ [longest]: true });

  const refusals = [
    { what: 'the session id', call: () => store.commit(change(mebibyte, 0)) },
    { what: 'the session id', call: () => store.commit(change(tooLong, 0)) },
    { what: 'the session id', call: () => store.load(mebibyte) },
    { what: 'the session id', call: () => store.delete(mebibyte) },
    {
      what: 'the slice name',
      call: () => store.commit(change('s-names', 0, { append: [log(mebibyte, 1)] })),
    },
    {
      what: 'the slice name',
      call: () => store.commit(change('s-names', 0, { replace: [state(tooLong, 1)] })),
    },
    {
      what: 'the record key',
      call: () => store.commit(change('s-names', 0, { records: { [mebibyte]: 1 } })),
    },
  ];
  for (const { what, call } of refusals) {
    const error = await catchRejection(ConfigurationError, call);
    expect(error.subject).toContain(label);
    expect(error.problem).toContain(what);
    expect(error.problem).toContain(`${MAX_STORED_NAME_LENGTH} characters`);
    expect(error.fix).toContain('MAX_STORED_NAME_LENGTH');
    // The message shows the start of the name, not all of it.
    expect(error.message.length).toBeLessThan(1_000);
  }
  // Nothing was written by the refused commits.
  expect(await store.load('s-names')).toBeUndefined();
}

describe('InMemorySessionStore, hardened', () => {
  it('takes names up to MAX_STORED_NAME_LENGTH and refuses longer ones with a ConfigurationError', async () => {
    await checkNameLengths(new InMemorySessionStore(), 'InMemorySessionStore');
  });
});

describeWithPostgres('PostgresSessionStore on a real PostgreSQL, hardened', () => {
  let server: PostgresServer | undefined;
  let pool: pg.Pool | undefined;
  const database = (): pg.Pool => pool ?? notStarted('PostgreSQL did not start');

  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 4 });
    await applyPostgresMigrations(database(), { tablePrefix: 'hard_' });
  }, 60_000);

  afterAll(async () => {
    await pool?.end();
    await server?.stop();
  }, 30_000);

  const store = (): PostgresSessionStore =>
    new PostgresSessionStore({ pool: database(), tablePrefix: 'hard_' });

  it('takes names up to MAX_STORED_NAME_LENGTH and refuses longer ones with a ConfigurationError, never a driver error', async () => {
    await checkNameLengths(store(), 'PostgresSessionStore');
  });

  it('loads damaged tags (the json column holds any JSON) as a ConfigurationError naming the session', async () => {
    const damages = [
      { sql: `UPDATE hard_sessions SET tags = '[1, 2]' WHERE session_id = $1`, named: 'tags' },
      { sql: `UPDATE hard_sessions SET tags = '{"a": 1}' WHERE session_id = $1`, named: 'tags' },
      { sql: `UPDATE hard_sessions SET tags = 'null' WHERE session_id = $1`, named: 'tags' },
    ];
    for (const [index, damage] of damages.entries()) {
      const sessionId = `pg-damaged-${index}`;
      await store().commit(change(sessionId, 0, { append: [log('Note', 'kept')] }));
      await database().query(damage.sql, [sessionId]);
      const error = await catchRejection(ConfigurationError, () => store().load(sessionId));
      expect(error.subject).toBe(`PostgresSessionStore session "${sessionId}"`);
      expect(error.problem).toContain(damage.named);
      expect(error.fix).toContain('Restore the session from a backup');
    }
  });
});

describeWithRedis('RedisSessionStore on a real redis-server, hardened', () => {
  let server: RedisServer | undefined;
  let client: Redis | undefined;
  const redis = (): Redis => client ?? notStarted('redis-server did not start');

  beforeAll(async () => {
    server = await startRedis();
    client = new Redis(server.url);
  }, 30_000);

  afterAll(async () => {
    await client?.quit();
    await server?.stop();
  }, 30_000);

  const store = (): RedisSessionStore =>
    new RedisSessionStore({ client: redis(), keyPrefix: 'hard:' });

  /** Commits a session with two values in slice Note and a record, then lets `damage` break it. */
  async function damaged(sessionId: string, damage: (base: string) => Promise<unknown>) {
    await store().commit(
      change(sessionId, 0, { append: [log('Note', 'first', 'second')], records: { job: 1 } }),
    );
    await damage(`hard:{${sessionId}}:`);
    return await catchRejection(ConfigurationError, () => store().load(sessionId));
  }

  it('takes names up to MAX_STORED_NAME_LENGTH and refuses longer ones with a ConfigurationError', async () => {
    await checkNameLengths(store(), 'RedisSessionStore');
  });

  it('loads a value that is no longer JSON as a ConfigurationError naming the session, slice and value', async () => {
    const error = await damaged('r-value', (base) => redis().lset(`${base}s:1`, 1, '{"cut'));
    expect(error.subject).toBe('RedisSessionStore session "r-value", slice "Note", value 1');
    expect(error.problem).toContain('not JSON');
    expect(error.fix).toContain('Restore the session from a backup');
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it('opens a damaged session through SessionPersistence with the same error', async () => {
    await damaged('r-open', (base) => redis().lset(`${base}s:1`, 0, 'undefined'));
    const persistence = new SessionPersistence({ store: store() });
    const error = await catchRejection(ConfigurationError, () => persistence.open('r-open'));
    expect(error.subject).toBe('RedisSessionStore session "r-open", slice "Note", value 0');
  });

  it('loads a record that is no longer JSON as a ConfigurationError naming the record', async () => {
    const error = await damaged('r-record', (base) => redis().hset(`${base}records`, 'job', '{'));
    expect(error.subject).toBe('RedisSessionStore session "r-record", record "job"');
    expect(error.problem).toContain('not JSON');
  });

  it('loads damaged tags, version, slice name, policy, slice count or keys of the wrong type as a ConfigurationError naming the session', async () => {
    const damages: { id: string; damage: (base: string) => Promise<unknown>; named: string }[] = [
      {
        id: 'r-tags',
        damage: (base) => redis().hset(`${base}meta`, 'tags', 'nope'),
        named: 'tags',
      },
      {
        id: 'r-tag-value',
        damage: (base) => redis().hset(`${base}meta`, 'tags', '{"a":[1]}'),
        named: 'tags',
      },
      {
        id: 'r-version',
        damage: (base) => redis().hset(`${base}meta`, 'version', 'many'),
        named: 'version',
      },
      {
        id: 'r-created',
        damage: (base) => redis().hdel(`${base}meta`, 'createdAt'),
        named: 'createdAt',
      },
      {
        id: 'r-policy',
        damage: (base) => redis().hset(`${base}meta`, 'p:1', 'forever'),
        named: 'policy',
      },
      { id: 'r-name', damage: (base) => redis().hdel(`${base}meta`, 'n:1'), named: 'name' },
      {
        id: 'r-count',
        damage: (base) => redis().hset(`${base}meta`, 'count', 'some'),
        named: 'slice count some',
      },
      {
        id: 'r-list',
        damage: async (base) => {
          await redis().del(`${base}s:1`);
          await redis().set(`${base}s:1`, 'not a list');
        },
        named: 'values that are unreadable: WRONGTYPE',
      },
      {
        id: 'r-records',
        damage: async (base) => {
          await redis().del(`${base}records`);
          await redis().set(`${base}records`, 'not a hash');
        },
        named: 'records that are unreadable: WRONGTYPE',
      },
      {
        id: 'r-meta',
        damage: async (base) => {
          await redis().del(`${base}meta`);
          await redis().set(`${base}meta`, 'not a hash');
        },
        named: 'meta hash is unreadable: WRONGTYPE',
      },
    ];
    for (const { id, damage, named } of damages) {
      const error = await damaged(id, damage);
      expect(error.subject).toContain(`RedisSessionStore session "${id}"`);
      expect(error.problem).toContain(named);
      expect(error.message).toContain('Fix: Restore the session from a backup');
    }
  });

  it('deletes a damaged session, every key of it, as the fix says', async () => {
    const damages = [
      (base: string) => redis().hset(`${base}meta`, 'count', 'some'),
      (base: string) => redis().hdel(`${base}meta`, 'count'),
      (base: string) => redis().hdel(`${base}meta`, 'n:1'),
    ];
    for (const [index, damage] of damages.entries()) {
      const id = `r-delete-${index}`;
      await damaged(id, damage);
      await store().delete(id);
      expect(await redis().keys(`hard:{${id}}:*`)).toEqual([]);
      expect(await store().load(id)).toBeUndefined();
    }
  });
});

function notStarted(message: string): never {
  throw new Error(message);
}
