import { describeValue } from '../core/describe-value.js';
import { MediaError } from '../core/errors/media-error.js';
import type { MediaKind, MediaPart, MediaRef, TextPart } from './content-part.js';
import { checkBytesPart, checkUrlPart, decodeBase64, type MediaOptions } from './check-media.js';

export type { MediaOptions } from './check-media.js';

/** Where a part's content comes from: bytes, base64 text, or a URL the provider fetches itself. */
export type MediaSource = Uint8Array | { readonly base64: string } | { readonly url: string | URL };

function build(kind: MediaKind, data: MediaSource, options: MediaOptions): MediaPart {
  // Read as unknown: JavaScript callers (and casts) can pass anything.
  const source: unknown = data;
  if (source instanceof Uint8Array) return checkBytesPart(kind, new Uint8Array(source), options);
  if (typeof source === 'object' && source !== null) {
    if ('base64' in source) {
      return checkBytesPart(
        kind,
        decodeBase64(kind, (source as { base64: string }).base64),
        options,
      );
    }
    if ('url' in source) return fromUrl(kind, String(source.url), options);
  }
  throw new MediaError({
    subject: `Media.${kind}`,
    problem: `the source is ${describeValue(source)}, not bytes, { base64 } or { url }.`,
    fix: 'Pass a Uint8Array (a Buffer is one), { base64: string } or { url: string | URL }.',
  });
}

function fromUrl(kind: MediaKind, url: string, options: MediaOptions): MediaPart {
  if (!url.startsWith('data:')) return checkUrlPart(kind, url, options);
  const { mediaType, base64 } = splitDataUrl(kind, url);
  return checkBytesPart(kind, decodeBase64(kind, base64), {
    ...options,
    mediaType: options.mediaType ?? mediaType,
  });
}

function splitDataUrl(kind: MediaKind, url: string): { mediaType: string; base64: string } {
  const comma = url.indexOf(',');
  const header = url.slice(5, comma < 0 ? 5 : comma);
  if (comma < 0 || !header.endsWith(';base64')) {
    throw new MediaError({
      subject: `Media.${kind}`,
      problem: 'the data: URL is not base64-encoded (no ";base64," before the data).',
      fix: 'Pass a data:<type>;base64,<data> URL, or the bytes.',
    });
  }
  return { mediaType: header.slice(0, -';base64'.length), base64: url.slice(comma + 1) };
}

/**
 * Builds the parts of a multimodal message or tool result. Every factory
 * checks the media type against the bytes (sniffed from their first bytes;
 * a declared type that contradicts them is refused), measures and hashes
 * them, and returns a frozen {@link MediaPart} holding its own copy of the
 * bytes. A bad input throws a `MediaError` naming the problem and the fix.
 *
 * ```ts
 * const screenshot = Media.image(await readFile('screen.png'));
 * const invoice = Media.file(pdfBytes, { filename: 'invoice.pdf' });
 * await runtime.evaluate(prompt, { input: [Media.text('What is wrong here?'), screenshot] });
 * ```
 */
export const Media = Object.freeze({
  /** An image: PNG, JPEG, GIF or WebP (its header's pixel count is checked against `maxPixels`). */
  image(data: MediaSource, options: MediaOptions = {}): MediaPart {
    return build('image', data, options);
  },
  /** A document: PDF, or UTF-8 text declared as `text/plain`, `text/csv`, `text/markdown` or `application/json`. */
  file(data: MediaSource, options: MediaOptions = {}): MediaPart {
    return build('file', data, options);
  },
  /** An audio clip: WAV, MP3, OGG or FLAC. */
  audio(data: MediaSource, options: MediaOptions = {}): MediaPart {
    return build('audio', data, options);
  },
  /** A text part, for mixing text and media in one message. */
  text(text: string): TextPart {
    return Object.freeze({ type: 'text', text });
  },
  /** The reference events and saved states record for `part`: type, media type, size, hash, no bytes. */
  ref(part: MediaPart | MediaRef): MediaRef {
    return Object.freeze({
      type: part.type,
      mediaType: part.mediaType,
      size: part.size,
      hash: part.hash,
      ...(part.filename === undefined ? {} : { filename: part.filename }),
      ...(part.url === undefined ? {} : { url: part.url }),
    });
  },
});
