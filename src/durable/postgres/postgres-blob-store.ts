import { BlobStore, ConfigurationError } from '../../index.js';
import {
  bufferOf,
  checkBlobHash,
  checkBlobPut,
  checkReadBlob,
  plainBytes,
} from '../blobs/check-blob.js';
import { checkTablePrefix } from './check-table-prefix.js';
import type { PostgresPool } from './postgres-pool.js';

/** Options of a {@link PostgresBlobStore}. */
export interface PostgresBlobStoreOptions {
  /** The connection pool, e.g. a `pg.Pool`; the store never ends it. */
  readonly pool: PostgresPool;
  /** The prefix of the tables, as given to `applyPostgresMigrations` (default `affordance_`). */
  readonly tablePrefix?: string;
}

/**
 * A {@link BlobStore} in PostgreSQL: one `bytea` row per blob in the
 * `<prefix>blobs` table that `applyPostgresMigrations` (or `affordance-migrate`)
 * creates, keyed by hash, with its media type and size beside it. Writing
 * bytes already stored is one `INSERT ... ON CONFLICT DO NOTHING`, so of two
 * concurrent writers of new bytes exactly one is told they were new. Every
 * read checks the bytes against their hash.
 *
 * @example
 * ```ts
 * await applyPostgresMigrations(pool);
 * const blobs = new PostgresBlobStore({ pool });
 * ```
 */
export class PostgresBlobStore extends BlobStore {
  readonly #pool: PostgresPool;
  readonly #table: string;

  constructor(options: PostgresBlobStoreOptions) {
    super();
    const prefix = checkTablePrefix(options.tablePrefix, 'PostgresBlobStore option tablePrefix');
    this.#table = `${prefix}blobs`;
    this.#pool = options.pool;
  }

  /** {@inheritDoc BlobStore.put} */
  async put(hash: string, bytes: Uint8Array, mediaType: string): Promise<boolean> {
    checkBlobPut('PostgresBlobStore', hash, bytes, mediaType);
    const result = await this.#pool.query(
      `INSERT INTO ${this.#table} (hash, media_type, size, bytes) VALUES ($1, $2, $3, $4)
       ON CONFLICT (hash) DO NOTHING RETURNING 1 AS added`,
      [hash, mediaType, bytes.byteLength, bufferOf(bytes)],
    );
    return result.rows.length > 0;
  }

  /** {@inheritDoc BlobStore.get} */
  async get(hash: string): Promise<Uint8Array | undefined> {
    checkBlobHash('PostgresBlobStore.get', hash);
    const result = await this.#pool.query(`SELECT bytes FROM ${this.#table} WHERE hash = $1`, [
      hash,
    ]);
    const row = result.rows[0];
    if (row === undefined) return undefined;
    const bytes = row['bytes'];
    if (!(bytes instanceof Uint8Array)) {
      throw new ConfigurationError({
        subject: `PostgresBlobStore blob ${hash}`,
        problem: `reading it returned ${typeof bytes} instead of bytes.`,
        fix: 'Pass a pool whose query returns bytea columns as Buffers (pg.Pool does).',
      });
    }
    const where = `${this.#table} row ${hash}`;
    return plainBytes(checkReadBlob('PostgresBlobStore', hash, where, bytes));
  }

  /** {@inheritDoc BlobStore.has} */
  async has(hash: string): Promise<boolean> {
    checkBlobHash('PostgresBlobStore.has', hash);
    const result = await this.#pool.query(`SELECT 1 AS found FROM ${this.#table} WHERE hash = $1`, [
      hash,
    ]);
    return result.rows.length > 0;
  }

  /** {@inheritDoc BlobStore.delete} */
  async delete(hash: string): Promise<void> {
    checkBlobHash('PostgresBlobStore.delete', hash);
    await this.#pool.query(`DELETE FROM ${this.#table} WHERE hash = $1`, [hash]);
  }
}
