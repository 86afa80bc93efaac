import type { MediaPart } from '../../content/content-part.js';

/** Base64 of each part's bytes, computed once per part (every request of an evaluation resends the same parts). */
const encoded = new WeakMap<MediaPart, string>();

/**
 * The part's bytes as base64 (standard alphabet, padded), encoded once per
 * part and kept while the part lives, without copying the bytes first.
 * `''` for a URL part.
 */
export function base64Of(part: MediaPart): string {
  const bytes = part.bytes;
  if (bytes === undefined) return '';
  let text = encoded.get(part);
  if (text === undefined) {
    text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
    encoded.set(part, text);
  }
  return text;
}

/** The part as a `data:` URL (`data:image/png;base64,...`), or its own URL when it has one. */
export function dataUrlOf(part: MediaPart): string {
  return part.url ?? `data:${part.mediaType};base64,${base64Of(part)}`;
}

/** The length of the base64 text of `size` bytes: what a provider counting encoded bytes sees. */
export function base64Length(size: number): number {
  return Math.ceil(size / 3) * 4;
}
