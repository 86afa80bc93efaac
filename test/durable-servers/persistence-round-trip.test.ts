/**
 * The persistence round trip (test/durable/persistence-round-trip.ts) on real
 * servers: every built-in slice and event a real evaluation records, through
 * PostgreSQL and through Redis.
 */
import { Redis } from 'ioredis';
import pg from 'pg';

import {
  applyPostgresMigrations,
  PostgresSessionStore,
  RedisSessionStore,
} from 'affordance/durable';

import { persistenceRoundTrip } from '../durable/persistence-round-trip.js';
import {
  describeWithPostgres,
  describeWithRedis,
} from '../support/servers/describe-with-servers.js';
import { type PostgresServer, startPostgres } from '../support/servers/postgres-server.js';
import { type RedisServer, startRedis } from '../support/servers/redis-server.js';

let prefixes = 0;

describeWithPostgres('the persistence round trip on PostgreSQL', () => {
  let server: PostgresServer;
  let pool: pg.Pool;
  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 4 });
  }, 60_000);
  afterAll(async () => {
    await pool.end();
    await server.stop();
  });

  persistenceRoundTrip('PostgresSessionStore', async () => {
    prefixes += 1;
    const tablePrefix = `round_trip_${prefixes}_`;
    await applyPostgresMigrations(pool, { tablePrefix });
    return {
      store: new PostgresSessionStore({ pool, tablePrefix }),
      close: () => Promise.resolve(),
    };
  });
});

describeWithRedis('the persistence round trip on Redis', () => {
  let server: RedisServer;
  let client: Redis;
  beforeAll(async () => {
    server = await startRedis();
    client = new Redis({ host: '127.0.0.1', port: server.port });
  }, 60_000);
  afterAll(async () => {
    await client.quit();
    await server.stop();
  });

  persistenceRoundTrip('RedisSessionStore', () => {
    prefixes += 1;
    return Promise.resolve({
      store: new RedisSessionStore({ client, keyPrefix: `round-trip-${prefixes}:` }),
      close: () => Promise.resolve(),
    });
  });
});
