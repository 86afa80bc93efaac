import { MediaError } from '../core/errors/media-error.js';

/** Where media bytes live, keyed by content hash; events hold `MediaRef`s. */
export abstract class BlobStore {
  /** Stores the bytes under `hash`; resolves `true` when they were not stored before (so a rollback may delete them). */
  abstract put(hash: string, bytes: Uint8Array, mediaType: string): Promise<boolean>;
  /** The bytes, or `undefined` when absent. */
  abstract get(hash: string): Promise<Uint8Array | undefined>;
  /** Whether bytes are stored under `hash`. */
  abstract has(hash: string): Promise<boolean>;
  /** Removes the bytes (a rolled-back call's new blobs). Absent hash: no error. */
  abstract delete(hash: string): Promise<void>;
}

/** Options of an {@link InMemoryBlobStore}. */
export interface InMemoryBlobStoreOptions {
  /** The most bytes the store holds in all; a `put` past it is refused. Unbounded when omitted. */
  readonly maxBytes?: number | undefined;
}

/**
 * A {@link BlobStore} in a `Map`, the runtime's default: blobs live as long as
 * the process. It keeps the `Uint8Array` it is given (media parts are frozen
 * and never mutated), so storing a part's bytes costs no copy.
 */
export class InMemoryBlobStore extends BlobStore {
  readonly #blobs = new Map<string, { readonly bytes: Uint8Array; readonly mediaType: string }>();
  readonly #maxBytes: number | undefined;
  #bytes = 0;

  constructor(options: InMemoryBlobStoreOptions = {}) {
    super();
    this.#maxBytes = options.maxBytes;
  }

  /** Bytes stored in all. */
  get size(): number {
    return this.#bytes;
  }

  /** Number of blobs stored. */
  get count(): number {
    return this.#blobs.size;
  }

  put(hash: string, bytes: Uint8Array, mediaType: string): Promise<boolean> {
    if (this.#blobs.has(hash)) return Promise.resolve(false);
    const max = this.#maxBytes;
    if (max !== undefined && this.#bytes + bytes.byteLength > max) {
      return Promise.reject(
        new MediaError({
          subject: `InMemoryBlobStore.put(${hash})`,
          problem: `storing ${bytes.byteLength} bytes would exceed the store's maxBytes of ${max} (${this.#bytes} used).`,
          fix: 'Raise InMemoryBlobStore maxBytes, or bind a durable BlobStore.',
          limit: { name: 'maxBytes', limit: max, actual: this.#bytes + bytes.byteLength },
        }),
      );
    }
    this.#blobs.set(hash, { bytes, mediaType });
    this.#bytes += bytes.byteLength;
    return Promise.resolve(true);
  }

  get(hash: string): Promise<Uint8Array | undefined> {
    return Promise.resolve(this.#blobs.get(hash)?.bytes);
  }

  has(hash: string): Promise<boolean> {
    return Promise.resolve(this.#blobs.has(hash));
  }

  delete(hash: string): Promise<void> {
    const blob = this.#blobs.get(hash);
    if (blob !== undefined) {
      this.#blobs.delete(hash);
      this.#bytes -= blob.bytes.byteLength;
    }
    return Promise.resolve();
  }
}
