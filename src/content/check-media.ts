import { MediaError } from '../core/errors/media-error.js';
import type { MediaKind, MediaPart } from './content-part.js';
import { hashBytes, hashUrl } from './hash-bytes.js';
import { imageDimensions } from './image-dimensions.js';
import { DEFAULT_MEDIA_LIMITS } from './media-limits.js';
import {
  MEDIA_TYPES,
  TEXT_MEDIA_TYPES,
  mediaTypeOfPath,
  normalizeMediaType,
} from './media-types.js';
import { sniffMediaType } from './sniff-media-type.js';

/** Options of the `Media` factories. */
export interface MediaOptions {
  /** The declared media type; checked against the bytes, required when they cannot be sniffed (text) or for a URL without a known extension. */
  readonly mediaType?: string | undefined;
  /** A file name for providers that show one (documents). */
  readonly filename?: string | undefined;
  /** The most pixels an image may declare in its header (decompression-bomb check). Default 8000 × 8000. */
  readonly maxPixels?: number | undefined;
  /**
   * Accepts an `http:` URL (refused by default: only `https:` URLs are sent
   * to providers). Meant for a URL the runtime fetches itself, from an origin
   * its `fetchMedia.allow` names with the `http://` scheme, such as a local
   * test server; an `http:` part it does not fetch is refused before the request.
   */
  readonly allowHttp?: boolean | undefined;
}

const FACTORY: Readonly<Record<MediaKind, string>> = {
  image: 'Media.image',
  file: 'Media.file',
  audio: 'Media.audio',
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Checks bytes the caller handed over (already copied) and builds the frozen part. */
export function checkBytesPart(
  kind: MediaKind,
  bytes: Uint8Array,
  options: MediaOptions,
): MediaPart {
  const subject = FACTORY[kind] + (options.filename === undefined ? '' : `(${options.filename})`);
  const declared =
    options.mediaType === undefined ? undefined : normalizeMediaType(options.mediaType);
  const sniffed = sniffMediaType(bytes);
  if (sniffed !== undefined && declared !== undefined && sniffed !== declared) {
    throw new MediaError({
      subject,
      problem: `the declared media type ${declared} contradicts the bytes, which are ${sniffed}.`,
      fix: `Declare ${sniffed} (or omit mediaType to use the sniffed type), or pass the right bytes.`,
    });
  }
  const mediaType = sniffed ?? declared;
  if (mediaType === undefined) {
    throw new MediaError({
      subject,
      problem: `the ${bytes.byteLength} bytes match no known format and no mediaType was declared.`,
      fix: `Pass the bytes of one of ${MEDIA_TYPES[kind].join(', ')}, or declare a text mediaType for UTF-8 text.`,
    });
  }
  checkKind(kind, subject, mediaType);
  if (sniffed === undefined) {
    if (!TEXT_MEDIA_TYPES.has(mediaType)) {
      throw new MediaError({
        subject,
        problem: `the bytes are not ${mediaType}: they do not start with its signature.`,
        fix: 'Pass the file as it is stored (not re-encoded or cut), or declare its real media type.',
      });
    }
    checkUtf8(subject, bytes, mediaType);
  }
  const dimensions = kind === 'image' ? checkPixels(subject, bytes, mediaType, options) : undefined;
  return Object.freeze({
    type: kind,
    mediaType,
    bytes,
    size: bytes.byteLength,
    hash: hashBytes(bytes),
    ...(options.filename === undefined ? {} : { filename: options.filename }),
    ...(dimensions === undefined ? {} : { width: dimensions.width, height: dimensions.height }),
  });
}

/** Checks a URL part: `https:` only, a media type declared or named by the path's extension. */
export function checkUrlPart(kind: MediaKind, raw: string, options: MediaOptions): MediaPart {
  const subject = FACTORY[kind];
  let url: URL;
  try {
    url = new URL(raw);
  } catch (cause) {
    throw new MediaError({
      subject,
      problem: `${JSON.stringify(raw.slice(0, 200))} is not a URL.`,
      fix: 'Pass an absolute https: URL, or the bytes.',
      cause,
    });
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowHttp === true)) {
    throw new MediaError({
      subject,
      problem: `the URL's scheme ${url.protocol} is not allowed; only https: URLs are sent to providers.`,
      fix: 'Serve the media over https:, or pass the bytes (a Uint8Array or { base64 }).',
    });
  }
  const declared =
    options.mediaType === undefined ? undefined : normalizeMediaType(options.mediaType);
  const mediaType = declared ?? mediaTypeOfPath(url.pathname);
  if (mediaType === undefined) {
    throw new MediaError({
      subject,
      problem: `the media type of ${url.href} is unknown (no mediaType declared, no known extension).`,
      fix: `Pass { mediaType } with one of ${MEDIA_TYPES[kind].join(', ')}.`,
    });
  }
  checkKind(kind, subject, mediaType);
  const filename = options.filename;
  return Object.freeze({
    type: kind,
    mediaType,
    url: url.href,
    size: 0,
    hash: hashUrl(url.href),
    ...(filename === undefined ? {} : { filename }),
  });
}

/** Strict base64 (RFC 4648, padding optional, whitespace ignored) to bytes. */
export function decodeBase64(kind: MediaKind, base64: string): Uint8Array {
  const compact = typeof base64 === 'string' ? base64.replace(/\s+/g, '') : '';
  if (
    typeof base64 !== 'string' ||
    !/^[A-Za-z0-9+/]*={0,2}$/.test(compact) ||
    compact.length % 4 === 1
  ) {
    throw new MediaError({
      subject: FACTORY[kind],
      problem: 'the base64 text is not valid base64 (RFC 4648 alphabet, optional = padding).',
      fix: 'Encode the bytes with Buffer.from(bytes).toString("base64"), or pass the Uint8Array itself.',
    });
  }
  const buffer = Buffer.from(compact, 'base64');
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength).slice();
}

function checkKind(kind: MediaKind, subject: string, mediaType: string): void {
  if (MEDIA_TYPES[kind].includes(mediaType)) return;
  const other = (Object.keys(MEDIA_TYPES) as MediaKind[]).find((candidate) =>
    MEDIA_TYPES[candidate].includes(mediaType),
  );
  throw new MediaError({
    subject,
    problem: `${mediaType} is not an accepted ${kind} type (${MEDIA_TYPES[kind].join(', ')}).`,
    fix:
      other === undefined
        ? 'Convert the media to an accepted type first.'
        : `Build it with ${FACTORY[other]}.`,
  });
}

function checkUtf8(subject: string, bytes: Uint8Array, mediaType: string): void {
  try {
    utf8.decode(bytes);
  } catch (cause) {
    throw new MediaError({
      subject,
      problem: `the bytes declared ${mediaType} are not valid UTF-8 text.`,
      fix: 'Convert the text to UTF-8, or declare the binary format the bytes really are.',
      cause,
    });
  }
}

function checkPixels(
  subject: string,
  bytes: Uint8Array,
  mediaType: string,
  options: MediaOptions,
): { width: number; height: number } {
  const dimensions = imageDimensions(bytes, mediaType);
  if (dimensions === undefined) {
    throw new MediaError({
      subject,
      problem: `the ${mediaType} header is cut short or malformed; its size cannot be read.`,
      fix: 'Pass the complete image file.',
    });
  }
  const max = options.maxPixels ?? DEFAULT_MEDIA_LIMITS.maxImagePixels;
  const pixels = dimensions.width * dimensions.height;
  if (pixels > max) {
    throw new MediaError({
      subject,
      problem: `the image declares ${dimensions.width} × ${dimensions.height} = ${pixels} pixels, over maxPixels ${max} (a decompression bomb guard).`,
      fix: 'Downscale the image, or raise maxPixels (Media.image options) if the size is intended.',
      limit: { name: 'maxPixels', limit: max, actual: pixels },
    });
  }
  return dimensions;
}
