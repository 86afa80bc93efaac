/**
 * PostgresBlobStore and RedisBlobStore on real servers: the BlobStore
 * contract of affordance/testing, and bytes damaged in the server refused.
 */
import { createHash } from 'node:crypto';

import { Redis } from 'ioredis';
import pg from 'pg';

import { ConfigurationError } from 'affordance';
import { applyPostgresMigrations, PostgresBlobStore, RedisBlobStore } from 'affordance/durable';
import { blobStoreContract } from 'affordance/testing';

import { catchError, catchRejection } from '../support/catch-error.js';
import {
  describeWithPostgres,
  describeWithRedis,
} from '../support/servers/describe-with-servers.js';
import { type PostgresServer, startPostgres } from '../support/servers/postgres-server.js';
import { type RedisServer, startRedis } from '../support/servers/redis-server.js';

const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n');
const hash = `sha256:${createHash('sha256').update(pdf).digest('hex')}`;

describeWithPostgres('PostgresBlobStore on a real PostgreSQL', () => {
  let server: PostgresServer | undefined;
  let pool: pg.Pool | undefined;
  let prefixes = 0;
  const database = (): pg.Pool => {
    if (pool === undefined) throw new Error('PostgreSQL did not start');
    return pool;
  };

  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 10 });
  }, 60_000);

  afterAll(async () => {
    await pool?.end();
    await server?.stop();
  }, 30_000);

  describe('the BlobStore contract', () => {
    const open = async () => {
      const tablePrefix = `blobs_${++prefixes}_`;
      await applyPostgresMigrations(database(), { tablePrefix });
      return new PostgresBlobStore({ pool: database(), tablePrefix });
    };
    for (const check of blobStoreContract('PostgresBlobStore', open)) {
      it(check.name, () => check.run(), 60_000);
    }
  });

  it('keeps media type and size beside the bytea, and refuses bytes damaged in the table', async () => {
    await applyPostgresMigrations(database(), { tablePrefix: 'damaged_' });
    const store = new PostgresBlobStore({ pool: database(), tablePrefix: 'damaged_' });
    expect(await store.put(hash, pdf, 'application/pdf')).toBe(true);
    const row = await database().query(
      'SELECT media_type, size, bytes FROM damaged_blobs WHERE hash = $1',
      [hash],
    );
    expect(row.rows[0]).toEqual({
      media_type: 'application/pdf',
      size: String(pdf.byteLength),
      bytes: Buffer.from(pdf),
    });
    await database().query("UPDATE damaged_blobs SET bytes = 'x'::bytea WHERE hash = $1", [hash]);
    const error = await catchRejection(ConfigurationError, () => store.get(hash));
    expect(error.message).toContain(
      `PostgresBlobStore blob ${hash}: the 1 bytes stored at damaged_blobs row ${hash}`,
    );
    expect(error.fix).toContain(`PostgresBlobStore.delete('${hash}')`);
  });

  it('refuses a table prefix it cannot use', () => {
    const error = catchError(
      ConfigurationError,
      () => new PostgresBlobStore({ pool: database(), tablePrefix: 'Bad-Prefix' }),
    );
    expect(error.message).toContain('PostgresBlobStore option tablePrefix');
  });
});

describeWithRedis('RedisBlobStore on a real redis-server', () => {
  let server: RedisServer | undefined;
  let client: Redis | undefined;
  let prefixes = 0;
  const redis = (): Redis => {
    if (client === undefined) throw new Error('redis-server did not start');
    return client;
  };

  beforeAll(async () => {
    server = await startRedis();
    client = new Redis(server.url);
  }, 30_000);

  afterAll(async () => {
    await client?.quit();
    await server?.stop();
  }, 30_000);

  describe('the BlobStore contract', () => {
    const open = () =>
      new RedisBlobStore({ client: redis(), keyPrefix: `contract:${++prefixes}:` });
    for (const check of blobStoreContract('RedisBlobStore', open)) {
      it(check.name, () => check.run(), 30_000);
    }
  });

  it('keeps a blob as one binary key under its prefix, and refuses bytes damaged in the server', async () => {
    const store = new RedisBlobStore({ client: redis(), keyPrefix: 'damaged:' });
    expect(await store.put(hash, pdf, 'application/pdf')).toBe(true);
    expect(await redis().getBuffer(`damaged:${hash}`)).toEqual(Buffer.from(pdf));
    await redis().set(`damaged:${hash}`, 'edited by hand');
    const error = await catchRejection(ConfigurationError, () => store.get(hash));
    expect(error.message).toContain(
      `RedisBlobStore blob ${hash}: the 14 bytes stored at key damaged:${hash}`,
    );
    await store.delete(hash);
    expect(await redis().exists(`damaged:${hash}`)).toBe(0);
  });

  it('refuses a key prefix it cannot use', () => {
    const error = catchError(
      ConfigurationError,
      () => new RedisBlobStore({ client: redis(), keyPrefix: 'with space' }),
    );
    expect(error.message).toContain('RedisBlobStore option keyPrefix');
  });
});
