import { isMediaPart, type MediaPart, type MessageContent } from '../../index.js';
import { base64Of, type ProviderMediaLimits } from '../../provider/index.js';
import type { Block } from '../turn/content-block.js';

/**
 * Anthropic's published limits for the Messages API: JPEG, PNG, GIF and WebP
 * images of at most 5 MB each (as the API counts them, base64) and 8000
 * pixels a side, up to 100 images per request; PDF and plain-text documents;
 * 32 MB per request; no audio. (A PDF's 100-page limit is the provider's to
 * check: affordance does not count pages.)
 */
export const ANTHROPIC_MEDIA: ProviderMediaLimits = Object.freeze<ProviderMediaLimits>({
  provider: 'anthropic',
  types: {
    image: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
    file: ['application/pdf', 'text/plain', 'text/csv', 'text/markdown', 'application/json'],
    audio: [],
  },
  urlKinds: ['image', 'file'],
  mediaInToolResults: true,
  maxImageBytes: 5 * 1024 * 1024,
  imageBytesEncoded: true,
  maxImageSide: 8000,
  maxImagesPerRequest: 100,
  maxFileBytes: 32 * 1024 * 1024,
  maxRequestMediaBytes: 32 * 1024 * 1024,
});

const utf8 = new TextDecoder();

/** An image or document block for `part` (base64, URL or, for text documents, text sources). */
export function mediaBlock(part: MediaPart): Block {
  if (part.type === 'image') {
    return {
      type: 'image',
      source:
        part.url === undefined
          ? { type: 'base64', media_type: part.mediaType, data: base64Of(part) }
          : { type: 'url', url: part.url },
    };
  }
  const title = part.filename === undefined ? {} : { title: part.filename };
  if (part.url !== undefined)
    return { type: 'document', source: { type: 'url', url: part.url }, ...title };
  if (part.mediaType === 'application/pdf') {
    return {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: base64Of(part) },
      ...title,
    };
  }
  // Text documents (checked UTF-8 by the Media factories) go as plain-text sources.
  return {
    type: 'document',
    source: { type: 'text', media_type: 'text/plain', data: utf8.decode(part.bytes) },
    ...title,
  };
}

/** A user message's content as content blocks. */
export function userBlocks(content: MessageContent): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part) =>
    isMediaPart(part) ? mediaBlock(part) : { type: 'text', text: part.text },
  );
}
