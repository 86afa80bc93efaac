import { createHash } from 'node:crypto';

/** `sha256:<hex>` of `bytes`: a media part's content hash (its key in a `BlobStore`). */
export function hashBytes(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** `url:<sha256 hex of the URL>`: the hash of a part the provider fetches itself. */
export function hashUrl(url: string): string {
  return `url:${createHash('sha256').update(url).digest('hex')}`;
}
