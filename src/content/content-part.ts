/** The kinds of media a part carries. */
export type MediaKind = 'image' | 'file' | 'audio';

/** Text inside a multi-part message. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/**
 * An image, document or audio clip. Built only by the `Media` factories (which check the media type against the
 * bytes, measure and hash them), frozen. Holds its bytes once: every message/event that uses it refers to this object
 * or to its `hash`.
 */
export interface MediaPart {
  readonly type: MediaKind;
  /** Checked media type, e.g. `image/png`, `application/pdf`, `audio/wav`. */
  readonly mediaType: string;
  /** Bytes (present for parts built from bytes or base64; absent for a URL part). */
  readonly bytes?: Uint8Array;
  /** A URL the provider fetches itself (only `https:` by default; the library never fetches it unless `fetchMedia` opt-in). */
  readonly url?: string;
  /** Byte length (0 for a URL part whose size is unknown). */
  readonly size: number;
  /** `sha256:<hex>` of the bytes; for a URL part `url:<sha256 of the URL>`. */
  readonly hash: string;
  /** File name shown to providers that take one (documents). */
  readonly filename?: string;
  /** Width in pixels, read from the image header (images built from bytes). */
  readonly width?: number;
  /** Height in pixels, read from the image header (images built from bytes). */
  readonly height?: number;
}

/** A text or media part of a message. */
export type ContentPart = TextPart | MediaPart;

/** What a user message (and `evaluate`'s `input`) holds: text, or parts in order. */
export type MessageContent = string | readonly ContentPart[];

/** A media part as events and saved states record it: a reference, never the bytes. */
export interface MediaRef {
  readonly type: MediaKind;
  readonly mediaType: string;
  readonly size: number;
  readonly hash: string;
  readonly filename?: string;
  readonly url?: string;
}

const MEDIA_KINDS: ReadonlySet<string> = new Set<MediaKind>(['image', 'file', 'audio']);

/** Whether `value` is an image, document or audio part (as the `Media` factories build them). */
export function isMediaPart(value: unknown): value is MediaPart {
  if (typeof value !== 'object' || value === null) return false;
  const part = value as Partial<MediaPart>;
  return (
    typeof part.type === 'string' &&
    MEDIA_KINDS.has(part.type) &&
    typeof part.mediaType === 'string' &&
    typeof part.hash === 'string' &&
    typeof part.size === 'number'
  );
}

/** Whether `value` is a text part. */
export function isTextPart(value: unknown): value is TextPart {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Partial<TextPart>).type === 'text' &&
    typeof (value as Partial<TextPart>).text === 'string'
  );
}

/** The text of a message's content: the string itself, or its text parts joined by blank lines. */
export function contentText(content: MessageContent): string {
  if (typeof content === 'string') return content;
  return content
    .filter(isTextPart)
    .map((part) => part.text)
    .join('\n\n');
}

/** The media parts of a message's content, in order (none for a string). */
export function mediaParts(content: MessageContent): readonly MediaPart[] {
  if (typeof content === 'string') return [];
  return content.filter(isMediaPart);
}
