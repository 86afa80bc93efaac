/**
 * `affordance/durable`: sessions that outlive a process. A `SessionStore`
 * keeps a session's slices and records under optimistic concurrency: in this
 * process (`InMemorySessionStore`), in PostgreSQL (`PostgresSessionStore`, its
 * tables made by `applyPostgresMigrations` or the `affordance-migrate` command)
 * or in Redis (`RedisSessionStore`). The bytes of the media that sessions
 * refer to live in a `BlobStore` beside them: `FilesystemBlobStore`,
 * `PostgresBlobStore` or `RedisBlobStore`. Neither `pg` nor `ioredis` is
 * imported: pass the client you already use.
 * @packageDocumentation
 */
export {
  FilesystemBlobStore,
  type FilesystemBlobStoreOptions,
} from './blobs/filesystem-blob-store.js';
export { MAX_STORED_NAME_LENGTH } from './check-stored-names.js';
export { InMemorySessionStore } from './in-memory-session-store.js';
export {
  applyPostgresMigrations,
  type ApplyPostgresMigrationsOptions,
} from './postgres/apply-postgres-migrations.js';
export type {
  PostgresClient,
  PostgresPool,
  PostgresPreparedQuery,
  PostgresQueryResult,
} from './postgres/postgres-pool.js';
export {
  PostgresBlobStore,
  type PostgresBlobStoreOptions,
} from './postgres/postgres-blob-store.js';
export {
  PostgresSessionStore,
  type PostgresSessionStoreOptions,
} from './postgres/postgres-session-store.js';
export type { RedisBlobClient } from './redis/redis-blob-client.js';
export { RedisBlobStore, type RedisBlobStoreOptions } from './redis/redis-blob-store.js';
export type { RedisScriptClient } from './redis/redis-script-client.js';
export { RedisSessionStore, type RedisSessionStoreOptions } from './redis/redis-session-store.js';
export { SessionStore } from './session-store.js';
export type {
  SessionChange,
  StoredSession,
  StoredSlice,
  StoredSlicePolicy,
} from './stored-session.js';
export type { CodecClass, CodecEntry, CodecLocation } from './codec-entry.js';
export { commitWithRetry, type CommitWithRetryOptions } from './commit-with-retry.js';
export { DurableSession, type DurableCommitOptions } from './durable-session.js';
export { SessionCodec, type SessionCodecOptions } from './session-codec.js';
export {
  type OpenSessionOptions,
  SessionPersistence,
  type SessionPersistenceOptions,
} from './session-persistence.js';
