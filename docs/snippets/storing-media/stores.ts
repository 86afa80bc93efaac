import type { Redis } from 'ioredis';
import { Container } from 'inversify';

import { BlobStore, installAffordance } from 'affordance';
import {
  applyPostgresMigrations,
  type CodecClass,
  PostgresBlobStore,
  type PostgresPool,
  PostgresSessionStore,
  RedisBlobStore,
  RedisSessionStore,
  SessionCodec,
  SessionPersistence,
  type SessionStore,
} from 'affordance/durable';

// #region postgres
/** Sessions and the bytes of their media in one PostgreSQL database. */
export async function postgresStores(pool: PostgresPool) {
  await applyPostgresMigrations(pool); // the session tables, and affordance_blobs
  return { store: new PostgresSessionStore({ pool }), blobs: new PostgresBlobStore({ pool }) };
}
// #endregion postgres

// #region redis
/** Sessions and the bytes of their media in one Redis server (an ioredis client). */
export function redisStores(client: Redis) {
  return { store: new RedisSessionStore({ client }), blobs: new RedisBlobStore({ client }) };
}
// #endregion redis

// #region wiring
/** A runtime writing media bytes to `blobs`, and a persistence that checks sessions against it. */
export function mediaRuntime(store: SessionStore, blobs: BlobStore, classes: CodecClass[] = []) {
  const container = new Container();
  container.bind(BlobStore).toConstantValue(blobs);
  const runtime = installAffordance(container);
  const persistence = new SessionPersistence({
    store,
    blobs,
    codec: new SessionCodec({ classes }),
  });
  return { container, runtime, persistence };
}
// #endregion wiring
