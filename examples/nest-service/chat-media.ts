import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';

import { Media, type MediaPart } from 'affordance';

/** The largest file the chat page may upload: 5 MiB. */
export const CHAT_UPLOAD_LIMIT = 5 * 1024 * 1024;

/** The media types the chat page accepts, and the `Media` factory that checks each. */
const accepted: Readonly<Record<string, 'image' | 'file'>> = {
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/gif': 'image',
  'image/webp': 'image',
  'application/pdf': 'file',
};

/** How many uploads and shown images the chat keeps (the oldest go first). */
const KEPT = 50;

/** Why an upload was refused, with the HTTP status to answer. */
export class UploadRefused extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The chat's media in this process: uploads waiting for the message that
 * sends them (each taken once), and the images tools showed, by hash, for the
 * page's `<img>` to fetch. Bounded: the oldest go first.
 */
@Injectable()
export class ChatMedia {
  readonly #uploads = new Map<string, MediaPart>();
  readonly #shown = new Map<string, MediaPart>();

  /**
   * Checks an upload with the `Media` factories (its bytes must be what
   * `declaredType` says: a PNG named `.png` holding a PDF is refused) and
   * keeps it for the message that sends it, under the id returned.
   * @throws UploadRefused naming the type or what the bytes contradict.
   */
  upload(
    bytes: Uint8Array,
    declaredType: string,
    filename: string | undefined,
  ): { readonly id: string; readonly part: MediaPart } {
    const mediaType = declaredType.split(';')[0]?.trim().toLowerCase() ?? '';
    const kind = accepted[mediaType];
    if (kind === undefined) {
      throw new UploadRefused(
        415,
        `The chat accepts images (PNG, JPEG, GIF, WebP) and PDF documents, not ${mediaType || 'a file without a type'}. Fix: upload one of those.`,
      );
    }
    let part: MediaPart;
    try {
      const options = filename === undefined ? { mediaType } : { mediaType, filename };
      part = kind === 'image' ? Media.image(bytes, options) : Media.file(bytes, options);
    } catch (error) {
      throw new UploadRefused(400, error instanceof Error ? error.message : String(error));
    }
    const id = randomUUID();
    keep(this.#uploads, id, part);
    return { id, part };
  }

  /** The upload kept under `id`, taken (a second take finds nothing). */
  take(id: string): MediaPart | undefined {
    const part = this.#uploads.get(id);
    this.#uploads.delete(id);
    return part;
  }

  /** Keeps the images of a tool's result for the page to show. */
  show(parts: readonly MediaPart[]): void {
    for (const part of parts) if (part.type === 'image') keep(this.#shown, part.hash, part);
  }

  /** An image a tool showed, by hash. */
  shown(hash: string): MediaPart | undefined {
    return this.#shown.get(hash);
  }
}

function keep(map: Map<string, MediaPart>, key: string, part: MediaPart): void {
  map.delete(key);
  map.set(key, part);
  for (const oldest of map.keys()) {
    if (map.size <= KEPT) break;
    map.delete(oldest);
  }
}
