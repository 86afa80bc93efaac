/**
 * One append commit (`npm run bench -- durable-commit`), on real servers
 * started here: three values appended to a session's log slice and one record
 * set, under optimistic concurrency (applied only when the stored version is
 * the expected one, which it bumps). Each store's `commit` is interleaved in
 * rounds with the same write hand-written for its server, with the same
 * guarantee:
 *
 * - PostgreSQL, as a transaction a user of `pg` writes (BEGIN, the guarded
 *   version bump, the values, the record, COMMIT), and as one prepared
 *   statement of data-modifying CTEs (one round trip, planned once per
 *   connection; the goal is judged against it).
 * - Redis, as one Lua script that checks and bumps the version, appends the
 *   values and sets the record, sent by its SHA-1 (`EVALSHA`).
 *
 * Every commit timed is checked: it must return the version after the one it
 * expected. Goal: each store ≤ ×1.5 of the cheapest hand-written form.
 */
import 'reflect-metadata';

import { createHash } from 'node:crypto';

import { Redis } from 'ioredis';
import pg from 'pg';

import {
  applyPostgresMigrations,
  PostgresSessionStore,
  RedisSessionStore,
  type SessionChange,
  type SessionStore,
} from 'affordance/durable';

import { startPostgres } from '../support/servers/postgres-server.js';
import { startRedis } from '../support/servers/redis-server.js';
import { compare } from './measure.js';

const values = [{ kind: 'ToolInvoked', n: 1 }, { kind: 'ToolInvoked', n: 2 }, { text: 'done' }];
const record = { turn: 3, at: '2026-11-29T00:00:00.000Z' };

/** Appends through `store` to a session it created, checking every version it returns. */
async function storeAppender(store: SessionStore, sessionId: string): Promise<() => Promise<void>> {
  const base = { sessionId, createdAt: '2026-11-29T00:00:00.000Z', tags: {}, replace: [] };
  let version = await store.commit({
    ...base,
    expectedVersion: 0,
    append: [{ name: 'log', policy: 'log', values: ['start'] }],
    records: {},
  });
  return async () => {
    const change: SessionChange = {
      ...base,
      expectedVersion: version,
      append: [{ name: 'log', policy: 'log', values }],
      records: { checkpoint: record },
    };
    const next = await store.commit(change);
    if (next !== version + 1) throw new Error(`${sessionId}: version ${next} after ${version}`);
    version = next;
  };
}

/** The hand-written PostgreSQL forms, on the store's own tables (default prefix). */
async function postgresByHand(
  pool: pg.Pool,
  store: SessionStore,
  sessionId: string,
  oneStatement: boolean,
): Promise<() => Promise<void>> {
  // The session and its slice exist first (created through the store: same rows, same tables).
  await (
    await storeAppender(store, sessionId)
  )();
  let version = 2;
  const bump = `UPDATE affordance_sessions SET version = version + 1, updated_at = now()
    WHERE session_id = $1 AND version = $2 RETURNING version::text AS version`;
  const insertValues = `INSERT INTO affordance_session_values (session_id, slice, seq, value)
    SELECT $1, 'log', coalesce((SELECT max(seq) FROM affordance_session_values WHERE session_id = $1 AND slice = 'log'), 0) + v.ord, v.value::json
    FROM unnest($3::text[]) WITH ORDINALITY AS v(value, ord)`;
  const setRecord = `INSERT INTO affordance_session_records (session_id, key, value) VALUES ($1, 'checkpoint', $4::json)
    ON CONFLICT (session_id, key) DO UPDATE SET value = EXCLUDED.value`;
  const statement = `WITH claim AS (${bump}),
    added AS (${insertValues} WHERE EXISTS (SELECT FROM claim)),
    stored AS (INSERT INTO affordance_session_records (session_id, key, value)
      SELECT $1, 'checkpoint', $4::json WHERE EXISTS (SELECT FROM claim)
      ON CONFLICT (session_id, key) DO UPDATE SET value = EXCLUDED.value)
    SELECT version FROM claim`;
  const texts = values.map((value) => JSON.stringify(value));
  const recordText = JSON.stringify(record);
  return async () => {
    let next: number | undefined;
    if (oneStatement) {
      const rows = (
        await pool.query<{ version: string }>({
          name: 'hand_commit',
          text: statement,
          values: [sessionId, version, texts, recordText],
        })
      ).rows;
      next = rows[0] === undefined ? undefined : Number(rows[0].version);
    } else {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const rows = (await client.query<{ version: string }>(bump, [sessionId, version])).rows;
        next = rows[0] === undefined ? undefined : Number(rows[0].version);
        if (next === undefined) throw new Error(`${sessionId}: conflict`);
        await client.query(insertValues.replace('$3', '$2'), [sessionId, texts]);
        await client.query(setRecord.replace('$4', '$2'), [sessionId, recordText]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    }
    if (next !== version + 1)
      throw new Error(`${sessionId}: version ${String(next)} after ${version}`);
    version = next;
  };
}

const redisScript = `
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[1]) then return {0, version} end
redis.call('RPUSH', KEYS[2], ARGV[3], ARGV[4], ARGV[5])
redis.call('HSET', KEYS[3], 'checkpoint', ARGV[2])
redis.call('HSET', KEYS[1], 'version', version + 1)
return {1, version + 1}`;

/** The hand-written Redis form: one script by its SHA-1, on keys of its own. */
async function redisByHand(client: Redis, sessionId: string): Promise<() => Promise<void>> {
  const sha1 = createHash('sha1').update(redisScript).digest('hex');
  await client.script('LOAD', redisScript);
  const keys = [
    `hand:{${sessionId}}:meta`,
    `hand:{${sessionId}}:log`,
    `hand:{${sessionId}}:records`,
  ];
  await client.hset(keys[0] as string, 'version', 1);
  let version = 1;
  const args = [JSON.stringify(record), ...values.map((value) => JSON.stringify(value))];
  return async () => {
    const reply = (await client.evalsha(sha1, 3, ...keys, version, ...args)) as [number, number];
    if (reply[0] !== 1 || reply[1] !== version + 1) {
      throw new Error(`${sessionId}: version ${reply[1]} after ${version}`);
    }
    version = reply[1];
  };
}

export default async function durableCommitBench(): Promise<void> {
  const redisServer = await startRedis();
  const postgres = await startPostgres();
  const client = new Redis({ host: '127.0.0.1', port: redisServer.port });
  const pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
  try {
    await applyPostgresMigrations(pool);
    const postgresStore = new PostgresSessionStore({ pool });
    const oneStatement = 'hand-written, one prepared statement';
    await compare(
      'PostgreSQL: one append commit (3 values, 1 record), optimistic',
      [
        { name: oneStatement, run: await postgresByHand(pool, postgresStore, 'pg-cte', true) },
        {
          name: 'hand-written transaction (BEGIN … COMMIT)',
          run: await postgresByHand(pool, postgresStore, 'pg-tx', false),
        },
        {
          name: 'PostgresSessionStore.commit',
          run: await storeAppender(postgresStore, 'pg-store'),
          goal: 1.5,
        },
      ],
      { baseline: oneStatement, batch: 50, rounds: 15 },
    );
    const script = 'hand-written script (EVALSHA)';
    await compare(
      'Redis: one append commit (3 values, 1 record), optimistic',
      [
        { name: script, run: await redisByHand(client, 'redis-hand') },
        {
          name: 'RedisSessionStore.commit',
          run: await storeAppender(new RedisSessionStore({ client }), 'redis-store'),
          goal: 1.5,
        },
      ],
      { baseline: script, batch: 200, rounds: 15 },
    );
  } finally {
    await client.quit();
    await pool.end();
    await redisServer.stop();
    await postgres.stop();
  }
}
