import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ConfigurationError, InMemoryBlobStore } from 'affordance';
import { FilesystemBlobStore } from 'affordance/durable';
import { blobStoreContract } from 'affordance/testing';

import { catchError, catchRejection } from '../support/catch-error.js';

const folders: string[] = [];
const freshFolder = (): string => {
  const folder = mkdtempSync(join(tmpdir(), 'affordance-blobs-'));
  folders.push(folder);
  return folder;
};

afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

const hashOf = (bytes: Uint8Array): string =>
  `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

describe('the BlobStore contract', () => {
  describe('FilesystemBlobStore', () => {
    for (const check of blobStoreContract(
      'FilesystemBlobStore',
      () => new FilesystemBlobStore({ directory: freshFolder() }),
    )) {
      it(check.name, () => check.run(), 30_000);
    }
  });

  describe('InMemoryBlobStore', () => {
    // It keeps the caller's array and trusts the hash (the runtime's parts come from the Media factories).
    const open = () => new InMemoryBlobStore();
    const options = { checksHashes: false, copiesBytes: false };
    for (const check of blobStoreContract('InMemoryBlobStore', open, options)) {
      it(check.name, () => check.run(), 30_000);
    }
  });
});

describe('FilesystemBlobStore', () => {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  const hash = hashOf(png);
  const hex = hash.slice('sha256:'.length);

  it('keeps each blob as one file named by its hash, and no temporary file behind', async () => {
    const directory = freshFolder();
    const store = new FilesystemBlobStore({ directory: join(directory, 'made', 'on', 'demand') });
    expect(await store.put(hash, png, 'image/png')).toBe(true);
    const shard = join(directory, 'made', 'on', 'demand', hex.slice(0, 2));
    expect(await readdir(shard)).toEqual([hex]);
    expect(new Uint8Array(await readFile(join(shard, hex)))).toEqual(png);
    expect(await store.put(hash, png, 'image/png')).toBe(false);
    expect(await readdir(shard)).toEqual([hex]);
  });

  it('refuses bytes damaged on disk, naming the hash, the file and the fix', async () => {
    const directory = freshFolder();
    const store = new FilesystemBlobStore({ directory });
    await store.put(hash, png, 'image/png');
    const file = join(directory, hex.slice(0, 2), hex);
    await writeFile(file, png.subarray(0, 5));
    const error = await catchRejection(ConfigurationError, () => store.get(hash));
    expect(error.message).toContain(`FilesystemBlobStore blob ${hash}`);
    expect(error.message).toContain(file);
    expect(error.message).toContain(`hash to ${hashOf(png.subarray(0, 5))}`);
    expect(error.fix).toContain(`FilesystemBlobStore.delete('${hash}')`);
    // has() does not read the bytes; delete() clears the damage so the media can be stored again.
    expect(await store.has(hash)).toBe(true);
    await store.delete(hash);
    expect(await store.put(hash, png, 'image/png')).toBe(true);
    expect(await store.get(hash)).toEqual(png);
  });

  it('refuses a missing directory option and a put without a media type', async () => {
    const error = catchError(
      ConfigurationError,
      () => new FilesystemBlobStore({} as unknown as { directory: string }),
    );
    expect(error.message).toContain('FilesystemBlobStore option directory');
    const store = new FilesystemBlobStore({ directory: freshFolder() });
    const refused = await catchRejection(ConfigurationError, () => store.put(hash, png, ''));
    expect(refused.message).toContain(
      `FilesystemBlobStore.put of ${hash}: was given no media type`,
    );
    expect(await store.has(hash)).toBe(false);
  });
});
