/**
 * `affordance/durable`: sessions that outlive a process. A `SessionStore`
 * keeps a session's slices and records under optimistic concurrency: in this
 * process (`InMemorySessionStore`), in PostgreSQL (`PostgresSessionStore`, its
 * tables made by `applyPostgresMigrations` or the `affordance-migrate` command)
 * or in Redis (`RedisSessionStore`). Neither `pg` nor `ioredis` is imported:
 * pass the client you already use.
 * @packageDocumentation
 */
export { InMemorySessionStore } from './in-memory-session-store.js';
export {
  applyPostgresMigrations,
  type ApplyPostgresMigrationsOptions,
} from './postgres/apply-postgres-migrations.js';
export type {
  PostgresClient,
  PostgresPool,
  PostgresQueryResult,
} from './postgres/postgres-pool.js';
export {
  PostgresSessionStore,
  type PostgresSessionStoreOptions,
} from './postgres/postgres-session-store.js';
export {
  RedisSessionStore,
  type RedisScriptClient,
  type RedisSessionStoreOptions,
} from './redis/redis-session-store.js';
export { SessionStore } from './session-store.js';
export type {
  SessionChange,
  StoredSession,
  StoredSlice,
  StoredSlicePolicy,
} from './stored-session.js';
