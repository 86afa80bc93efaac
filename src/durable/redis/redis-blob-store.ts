import { BlobStore, ConfigurationError } from '../../index.js';
import {
  bufferOf,
  checkBlobHash,
  checkBlobPut,
  checkReadBlob,
  plainBytes,
} from '../blobs/check-blob.js';
import type { RedisBlobClient } from './redis-blob-client.js';

/** Options of a {@link RedisBlobStore}. */
export interface RedisBlobStoreOptions {
  /** The client, e.g. `new Redis(url)` from ioredis; the store never closes it. */
  readonly client: RedisBlobClient;
  /**
   * Starts every key of the store (default `affordance:blob:`): letters,
   * digits and `_ . : / -`, 1 to 64 of them.
   */
  readonly keyPrefix?: string;
}

const keyPrefixPattern = /^[A-Za-z0-9_.:/-]{1,64}$/;

/**
 * A {@link BlobStore} in Redis: one string key per blob, `<prefix><hash>`,
 * holding the bytes. A write is `SET ... NX`, so bytes already stored are not
 * sent twice into the key and of two concurrent writers of new bytes exactly
 * one is told they were new. Keys never expire; `delete` removes them. Every
 * read checks the bytes against their hash. Mind the server's memory: a
 * blob is as large as the media (caps: `MediaLimits`).
 *
 * @example
 * ```ts
 * const blobs = new RedisBlobStore({ client: new Redis(process.env.REDIS_URL) });
 * ```
 */
export class RedisBlobStore extends BlobStore {
  readonly #client: RedisBlobClient;
  readonly #prefix: string;

  constructor(options: RedisBlobStoreOptions) {
    super();
    this.#prefix = checkKeyPrefix(options.keyPrefix);
    this.#client = options.client;
  }

  /** {@inheritDoc BlobStore.put} */
  async put(hash: string, bytes: Uint8Array, mediaType: string): Promise<boolean> {
    checkBlobPut('RedisBlobStore', hash, bytes, mediaType);
    return (await this.#client.set(this.#prefix + hash, bufferOf(bytes), 'NX')) === 'OK';
  }

  /** {@inheritDoc BlobStore.get} */
  async get(hash: string): Promise<Uint8Array | undefined> {
    const key = this.#key('RedisBlobStore.get', hash);
    const bytes = await this.#client.getBuffer(key);
    if (bytes === null) return undefined;
    return plainBytes(checkReadBlob('RedisBlobStore', hash, `key ${key}`, bytes));
  }

  /** {@inheritDoc BlobStore.has} */
  async has(hash: string): Promise<boolean> {
    return (await this.#client.exists(this.#key('RedisBlobStore.has', hash))) > 0;
  }

  /** {@inheritDoc BlobStore.delete} */
  async delete(hash: string): Promise<void> {
    await this.#client.del(this.#key('RedisBlobStore.delete', hash));
  }

  #key(subject: string, hash: string): string {
    checkBlobHash(subject, hash);
    return this.#prefix + hash;
  }
}

function checkKeyPrefix(prefix: string | undefined): string {
  const chosen = prefix ?? 'affordance:blob:';
  if (keyPrefixPattern.test(chosen)) return chosen;
  throw new ConfigurationError({
    subject: 'RedisBlobStore option keyPrefix',
    problem: `${JSON.stringify(chosen)} is not a usable key prefix: it must match ${String(keyPrefixPattern)}.`,
    fix: 'Pass a prefix such as "myapp:blobs:" or leave keyPrefix out to use "affordance:blob:".',
  });
}
