import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { BlobStore, ConfigurationError } from '../../index.js';
import { checkBlobHash, checkBlobPut, checkReadBlob, plainBytes } from './check-blob.js';

/** Options of a {@link FilesystemBlobStore}. */
export interface FilesystemBlobStoreOptions {
  /** The folder the blobs live in (created when missing); give it to this store alone. */
  readonly directory: string;
}

/**
 * A {@link BlobStore} in a folder: each blob is one file named by its hash,
 * `<directory>/<first 2 hex digits>/<64 hex digits>`, so equal media are
 * stored once. A write goes to a temporary file in the same folder, is
 * flushed to disk, and is then published under its name in one step (a hard
 * link, which unlike a rename never replaces a file another writer published
 * first, so exactly one of two concurrent writers of new bytes is told they
 * were new); a reader never sees half a file. Every read checks the bytes
 * against their hash and refuses damaged ones with an error naming the file.
 *
 * @example
 * ```ts
 * const blobs = new FilesystemBlobStore({ directory: '/var/lib/my-agent/blobs' });
 * ```
 */
export class FilesystemBlobStore extends BlobStore {
  /** The folder, as an absolute path. */
  readonly directory: string;

  constructor(options: FilesystemBlobStoreOptions) {
    super();
    const directory = (options as Partial<FilesystemBlobStoreOptions> | undefined)?.directory;
    if (typeof directory !== 'string' || directory === '') {
      throw new ConfigurationError({
        subject: 'FilesystemBlobStore option directory',
        problem: `must be the path of a folder, got ${typeof directory === 'string' ? 'an empty string' : typeof directory}.`,
        fix: "Pass the folder the blobs live in: new FilesystemBlobStore({ directory: './blobs' }).",
      });
    }
    this.directory = resolve(directory);
  }

  /** {@inheritDoc BlobStore.put} */
  async put(hash: string, bytes: Uint8Array, mediaType: string): Promise<boolean> {
    // The hash names the bytes; the media type travels in each MediaRef.
    const hex = checkBlobPut('FilesystemBlobStore', hash, bytes, mediaType);
    const folder = join(this.directory, hex.slice(0, 2));
    const target = join(folder, hex);
    if (await exists(target)) return false;
    await mkdir(folder, { recursive: true });
    const temporary = join(folder, `.${hex}.${randomBytes(6).toString('hex')}.tmp`);
    const file = await open(temporary, 'wx');
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      return await publish(temporary, target);
    } finally {
      await unlink(temporary).catch(() => undefined);
    }
  }

  /** {@inheritDoc BlobStore.get} */
  async get(hash: string): Promise<Uint8Array | undefined> {
    const path = this.#path('FilesystemBlobStore.get', hash);
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return undefined;
      throw error;
    }
    return plainBytes(checkReadBlob('FilesystemBlobStore', hash, path, bytes));
  }

  /** {@inheritDoc BlobStore.has} */
  async has(hash: string): Promise<boolean> {
    return await exists(this.#path('FilesystemBlobStore.has', hash));
  }

  /** {@inheritDoc BlobStore.delete} */
  async delete(hash: string): Promise<void> {
    try {
      await unlink(this.#path('FilesystemBlobStore.delete', hash));
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') throw error;
    }
  }

  #path(subject: string, hash: string): string {
    const hex = checkBlobHash(subject, hash);
    return join(this.directory, hex.slice(0, 2), hex);
  }
}

/**
 * Gives the written `temporary` file the name `target`; `false` when another
 * writer published it first. A folder on a filesystem without hard links
 * falls back to a rename (atomic too, but two racing writers may both be told
 * the bytes were new).
 */
async function publish(temporary: string, target: string): Promise<boolean> {
  try {
    await link(temporary, target);
    return true;
  } catch (error) {
    const code = codeOf(error);
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
  }
  if (await exists(target)) return false;
  await rename(temporary, target);
  return true;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return false;
    throw error;
  }
}

function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null
    ? (error as { code?: unknown }).code
    : undefined;
}
