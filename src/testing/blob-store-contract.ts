import { createHash, randomBytes } from 'node:crypto';

import type { BlobStore } from '../index.js';

/** One check of {@link blobStoreContract}: a name, and a run that rejects with what was wrong. */
export interface BlobStoreContractCheck {
  /** What the check proves, as a test name. */
  readonly name: string;
  /** Opens a fresh store and checks it; rejects with an `Error` saying what was expected and what came. */
  run(): Promise<void>;
}

/** Options of {@link blobStoreContract}: what a store is checked for beyond the `BlobStore` methods' own promises. */
export interface BlobStoreContractOptions {
  /**
   * Whether the store refuses bytes under a hash that is not theirs and hashes
   * that are not `sha256:<64 hex>` (default `true`: a durable store must, or
   * one wrong write answers every later reference with the wrong media).
   */
  readonly checksHashes?: boolean;
  /**
   * Whether the store keeps bytes of its own, so that changing the array given
   * to `put` or returned by `get` changes nothing stored (default `true`; a
   * store that keeps the caller's array, as an in-process one may, says `false`).
   */
  readonly copiesBytes?: boolean;
}

/**
 * The behaviour every `BlobStore` must have, as checks that need no test
 * runner: bytes stored under their hash come back exactly (every byte value,
 * an empty blob, a 4 MiB one), `put` answers whether the bytes are new (and
 * exactly one of concurrent writers of new bytes is told so, which is what a
 * rolled-back call relies on to delete only its own blobs), `delete` removes
 * them and is no error when absent; and, unless `options` say otherwise,
 * bytes under a hash that is not theirs and hashes that are not
 * `sha256:<64 hex>` are refused naming the hash, and changing the bytes given
 * or returned changes nothing stored. `open` is
 * called once per check and must give a store that shares nothing with the
 * stores of earlier calls (a new folder, table prefix or key prefix).
 *
 * @example
 * for (const check of blobStoreContract('FilesystemBlobStore', () => new FilesystemBlobStore({ directory: fresh() }))) {
 *   it(check.name, () => check.run());
 * }
 */
export function blobStoreContract(
  label: string,
  open: () => BlobStore | Promise<BlobStore>,
  options: BlobStoreContractOptions = {},
): readonly BlobStoreContractCheck[] {
  const define = (name: string, body: (store: BlobStore, fail: Fail) => Promise<void>) =>
    Object.freeze({
      name,
      run: async () => {
        const fail: Fail = (problem) =>
          new Error(`BlobStore contract check '${name}' failed for ${label}: ${problem}`);
        await body(await open(), fail);
      },
    });
  const checks = [
    define(
      'stores new bytes (put answers true), then has them and gets them back exactly',
      roundTrip,
    ),
    define('answers false for bytes it already holds, and keeps them', storedTwice),
    define('answers undefined and false for a hash it does not hold', absent),
    define(
      'deletes bytes, others stay; deleting absent bytes is no error; stored again they are new',
      deletes,
    ),
    define('keeps every byte value, an empty blob and a 4 MiB blob exactly', everyByte),
    define(
      'tells exactly one of eight concurrent writers of new bytes that they were new',
      concurrent,
    ),
  ];
  if (options.checksHashes !== false) {
    checks.push(
      define(
        'refuses bytes under a hash that is not theirs, naming it, and stores nothing',
        wrongHash,
      ),
      define(
        'refuses a hash that is not sha256:<64 hex> in put, get, has and delete, naming it',
        badHashes,
      ),
    );
  }
  if (options.copiesBytes !== false) {
    checks.push(
      define(
        'keeps its own bytes: changing the bytes given or returned changes nothing stored',
        ownCopy,
      ),
    );
  }
  return Object.freeze(checks);
}

type Fail = (problem: string) => Error;

const mediaType = 'application/octet-stream';

function hashOf(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

function blob(size = 1024): { bytes: Uint8Array; hash: string } {
  const bytes = new Uint8Array(randomBytes(size));
  return { bytes, hash: hashOf(bytes) };
}

function same(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
}

function shown(bytes: Uint8Array | undefined): string {
  return bytes === undefined
    ? 'undefined'
    : `${bytes.byteLength} bytes hashing to ${hashOf(bytes)}`;
}

async function expectGet(store: BlobStore, hash: string, bytes: Uint8Array, fail: Fail) {
  const got = await store.get(hash);
  if (!(got instanceof Uint8Array) || !same(got, bytes)) {
    throw fail(
      `get('${hash}') answered ${shown(got)}, expected the ${bytes.byteLength} bytes stored.`,
    );
  }
}

async function roundTrip(store: BlobStore, fail: Fail): Promise<void> {
  const { bytes, hash } = blob();
  const added = await answer(store.put(hash, bytes, mediaType));
  if (added !== true) throw fail(`put of new bytes answered ${String(added)}, expected true.`);
  if ((await answer(store.has(hash))) !== true) throw fail(`has('${hash}') is not true after put.`);
  await expectGet(store, hash, bytes, fail);
}

async function storedTwice(store: BlobStore, fail: Fail): Promise<void> {
  const { bytes, hash } = blob();
  await store.put(hash, bytes, mediaType);
  const again = await answer(store.put(hash, bytes.slice(), 'image/png'));
  if (again !== false)
    throw fail(`a second put of the same bytes answered ${String(again)}, expected false.`);
  await expectGet(store, hash, bytes, fail);
}

async function absent(store: BlobStore, fail: Fail): Promise<void> {
  const { hash } = blob();
  const got = await store.get(hash);
  if (got !== undefined)
    throw fail(`get of a hash never stored answered ${shown(got)}, expected undefined.`);
  const has = await answer(store.has(hash));
  if (has !== false)
    throw fail(`has of a hash never stored answered ${String(has)}, expected false.`);
}

async function deletes(store: BlobStore, fail: Fail): Promise<void> {
  const gone = blob();
  const kept = blob();
  await store.put(gone.hash, gone.bytes, mediaType);
  await store.put(kept.hash, kept.bytes, mediaType);
  await store.delete(gone.hash);
  if ((await store.has(gone.hash)) || (await store.get(gone.hash)) !== undefined) {
    throw fail(`after delete('${gone.hash}') the store still has the bytes.`);
  }
  await expectGet(store, kept.hash, kept.bytes, fail);
  await store.delete(gone.hash);
  await store.delete(blob().hash);
  const again = await answer(store.put(gone.hash, gone.bytes, mediaType));
  if (again !== true)
    throw fail(`put after delete answered ${String(again)}, expected true (new again).`);
  await expectGet(store, gone.hash, gone.bytes, fail);
}

async function everyByte(store: BlobStore, fail: Fail): Promise<void> {
  const all = Uint8Array.from({ length: 512 }, (_, index) => index % 256);
  const blobs = [all, new Uint8Array(0), new Uint8Array(randomBytes(4 * 1024 * 1024))];
  for (const bytes of blobs) {
    const hash = hashOf(bytes);
    if ((await answer(store.put(hash, bytes, mediaType))) !== true) {
      throw fail(`put of ${bytes.byteLength} new bytes did not answer true.`);
    }
    await expectGet(store, hash, bytes, fail);
  }
}

async function concurrent(store: BlobStore, fail: Fail): Promise<void> {
  const { bytes, hash } = blob(64 * 1024);
  const answers = await Promise.all(
    Array.from({ length: 8 }, () => answer(store.put(hash, bytes.slice(), mediaType))),
  );
  const told = answers.filter((answer) => answer === true).length;
  if (told !== 1) {
    throw fail(
      `${told} of 8 concurrent puts of new bytes answered true (${answers.map(String).join(', ')}), expected exactly 1: a rolled-back call would delete bytes another call still refers to.`,
    );
  }
  await expectGet(store, hash, bytes, fail);
}

async function wrongHash(store: BlobStore, fail: Fail): Promise<void> {
  const { bytes } = blob();
  const other = blob().hash;
  const error = await rejection(() => store.put(other, bytes, mediaType));
  if (!error?.message.includes(other)) {
    throw fail(
      `put of bytes under a hash that is not theirs ${error === undefined ? 'was accepted' : `was refused without naming ${other}: ${error.message}`}.`,
    );
  }
  if ((await store.has(other)) || (await store.get(other)) !== undefined) {
    throw fail(`the refused put stored bytes under ${other}.`);
  }
}

async function badHashes(store: BlobStore, fail: Fail): Promise<void> {
  const { bytes, hash } = blob();
  const bad = [
    `url:${hash.slice('sha256:'.length)}`,
    hash.toUpperCase(),
    hash.slice(0, -1),
    `sha256:../../${hash.slice(13)}`,
    '',
  ];
  const calls: [string, (text: string) => Promise<unknown>][] = [
    ['put', (text) => store.put(text, bytes, mediaType)],
    ['get', (text) => store.get(text)],
    ['has', (text) => store.has(text)],
    ['delete', (text) => store.delete(text)],
  ];
  for (const text of bad) {
    for (const [method, call] of calls) {
      const error = await rejection(() => call(text));
      if (!error?.message.includes(JSON.stringify(text))) {
        throw fail(
          `${method}(${JSON.stringify(text)}) ${error === undefined ? 'was accepted' : `was refused without naming the hash: ${error.message}`}; expected a refusal naming it.`,
        );
      }
    }
  }
}

async function ownCopy(store: BlobStore, fail: Fail): Promise<void> {
  const { bytes, hash } = blob();
  const given = bytes.slice();
  await store.put(hash, given, mediaType);
  given.fill(0);
  await expectGet(store, hash, bytes, fail);
  const got = await store.get(hash);
  got?.fill(7);
  await expectGet(store, hash, bytes, fail);
}

/** What a store answered, as `unknown`: a broken store may answer something its type does not say. */
async function answer(promise: Promise<unknown>): Promise<unknown> {
  return await promise;
}

async function rejection(call: () => Promise<unknown>): Promise<Error | undefined> {
  try {
    await call();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
