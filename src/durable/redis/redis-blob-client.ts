/**
 * The part of a Redis client a `RedisBlobStore` uses: plain binary-safe
 * string commands. An ioredis `Redis` or `Cluster` fits (`getBuffer` is
 * ioredis's `GET` answering bytes, not text).
 */
export interface RedisBlobClient {
  /** `SET key value NX`: `'OK'` when the key was set, `null` when it existed. */
  set(key: string, value: Buffer, condition: 'NX'): Promise<'OK' | null>;
  /** `GET key`, answered as bytes; `null` when the key does not exist. */
  getBuffer(key: string): Promise<Buffer | null>;
  /** `EXISTS key`: 1 when it exists, 0 otherwise. */
  exists(key: string): Promise<number>;
  /** `DEL key`: the number of keys removed. */
  del(key: string): Promise<number>;
}
