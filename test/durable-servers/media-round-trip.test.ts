/**
 * The media round trip (test/durable/media-round-trip.ts) on real servers:
 * PostgresSessionStore with PostgresBlobStore, RedisSessionStore with
 * RedisBlobStore.
 */
import { Redis } from 'ioredis';
import pg from 'pg';

import {
  applyPostgresMigrations,
  PostgresBlobStore,
  PostgresSessionStore,
  RedisBlobStore,
  RedisSessionStore,
} from 'affordance/durable';

import { mediaRoundTrip } from '../durable/media-round-trip.js';
import {
  describeWithPostgres,
  describeWithRedis,
} from '../support/servers/describe-with-servers.js';
import { type PostgresServer, startPostgres } from '../support/servers/postgres-server.js';
import { type RedisServer, startRedis } from '../support/servers/redis-server.js';

let namespaces = 0;

describeWithPostgres('media on PostgreSQL', () => {
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

  mediaRoundTrip('PostgresSessionStore and PostgresBlobStore', async () => {
    const tablePrefix = `media_${++namespaces}_`;
    await applyPostgresMigrations(pool, { tablePrefix });
    return {
      store: new PostgresSessionStore({ pool, tablePrefix }),
      blobs: new PostgresBlobStore({ pool, tablePrefix }),
    };
  });
});

describeWithRedis('media on Redis', () => {
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

  mediaRoundTrip('RedisSessionStore and RedisBlobStore', () => {
    const prefix = `media:${++namespaces}:`;
    return Promise.resolve({
      store: new RedisSessionStore({ client, keyPrefix: prefix }),
      blobs: new RedisBlobStore({ client, keyPrefix: `${prefix}blob:` }),
    });
  });
});
