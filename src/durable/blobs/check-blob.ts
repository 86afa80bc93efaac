import { createHash } from 'node:crypto';

import { ConfigurationError } from '../../index.js';

/** The hash of stored bytes: `sha256:` and 64 lower-case hex digits (a URL part's `url:` hash has no bytes). */
const blobHashPattern = /^sha256:[0-9a-f]{64}$/;

/**
 * Checks that `hash` names bytes a blob store can hold: `sha256:<64 hex>`,
 * as the `Media` factories write it. Returns the hex digest. @internal
 * @throws ConfigurationError naming `store.method` and the hash.
 */
export function checkBlobHash(subject: string, hash: unknown): string {
  if (typeof hash === 'string' && blobHashPattern.test(hash)) return hash.slice('sha256:'.length);
  const shown = typeof hash === 'string' ? JSON.stringify(hash.slice(0, 80)) : typeof hash;
  throw new ConfigurationError({
    subject,
    problem: `${shown} is not the hash of stored bytes: a blob store keys bytes by "sha256:" and 64 lower-case hex digits (a URL part has no bytes to store).`,
    fix: 'Pass the `hash` of a MediaPart built from bytes or base64 (Media.image(bytes), Media.file(bytes)...).',
  });
}

/** `sha256:<hex>` of `bytes`. @internal */
export function sha256Of(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/**
 * Checks, before a blob store writes `bytes` under `hash`, that they are the
 * bytes the hash names: a blob stored under another hash would answer every
 * later reference to that hash with the wrong image or document. @internal
 * @throws ConfigurationError naming the store, both hashes and the fix.
 */
export function checkBlobBytes(subject: string, hash: string, bytes: Uint8Array): void {
  if (!(bytes instanceof Uint8Array)) {
    throw new ConfigurationError({
      subject,
      problem: `the bytes of ${hash} are a ${typeof bytes === 'object' ? 'non-Uint8Array object' : typeof bytes}, not a Uint8Array.`,
      fix: 'Pass the `bytes` of the MediaPart (a Uint8Array; a Node Buffer is one).',
    });
  }
  const actual = sha256Of(bytes);
  if (actual === hash) return;
  throw new ConfigurationError({
    subject,
    problem: `was asked to store ${bytes.byteLength} bytes under ${hash}, but their hash is ${actual}; nothing was stored.`,
    fix: 'Store a MediaPart with its own hash: put(part.hash, part.bytes, part.mediaType), parts built by the Media factories.',
  });
}

/**
 * Checks what `store.put` was given: the hash, the bytes it names, and a
 * media type. Returns the hex digest. @internal
 * @throws ConfigurationError naming the store and what is wrong.
 */
export function checkBlobPut(
  store: string,
  hash: string,
  bytes: Uint8Array,
  mediaType: string,
): string {
  const subject = `${store}.put`;
  const hex = checkBlobHash(subject, hash);
  if (typeof mediaType !== 'string' || mediaType === '') {
    throw new ConfigurationError({
      subject: `${subject} of ${hash}`,
      problem: 'was given no media type.',
      fix: "Pass the part's media type: put(part.hash, part.bytes, part.mediaType).",
    });
  }
  checkBlobBytes(subject, hash, bytes);
  return hex;
}

/**
 * `bytes` read back for `hash`, after checking their hash: bytes damaged on
 * disk or edited in the server are refused, never handed to a model as the
 * image or document they no longer are. @internal
 * @throws Error naming the store, where the bytes are, both hashes and the fix.
 */
export function checkReadBlob(
  store: string,
  hash: string,
  where: string,
  bytes: Uint8Array,
): Uint8Array {
  const actual = sha256Of(bytes);
  if (actual === hash) return bytes;
  throw new ConfigurationError({
    subject: `${store} blob ${hash}`,
    problem: `the ${bytes.byteLength} bytes stored at ${where} hash to ${actual}: they are damaged.`,
    fix: `Restore the blob from a backup, or delete it (${store}.delete('${hash}')) and store the media again; sessions that refer to it cannot be loaded until it is back.`,
  });
}

/** `bytes` as a plain `Uint8Array` over the same memory (a Node `Buffer` is a subclass). @internal */
export function plainBytes(bytes: Uint8Array): Uint8Array {
  return Object.getPrototypeOf(bytes) === Uint8Array.prototype
    ? bytes
    : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** `bytes` as a Node `Buffer` over the same memory (what drivers take for binary values). @internal */
export function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
