import { isMediaPart, type MediaKind, type MediaPart } from '../../content/content-part.js';
import { MediaError } from '../../core/errors/media-error.js';
import type { ConversationMessage } from '../conversation.js';
import { base64Length } from './media-encoding.js';

/**
 * A provider's published limits on media in one request, checked by its
 * adapter before the request is sent (`checkProviderMedia`). Omitted limits
 * are not checked.
 */
export interface ProviderMediaLimits {
  /** The provider (and API) the limits belong to, named in every refusal: `openai (responses)`. */
  readonly provider: string;
  /** The media types the provider takes, per kind; a kind with none is refused. */
  readonly types: Readonly<Record<MediaKind, readonly string[]>>;
  /** The kinds the provider can fetch from a URL itself; a URL part of another kind is refused. */
  readonly urlKinds: readonly MediaKind[];
  /**
   * Whether tool results carry their media to this provider (else the runtime
   * moves them into a user message, counted there). Defaults to `false`.
   */
  readonly mediaInToolResults?: boolean | undefined;
  /** The most bytes of one image (`imageBytesEncoded`: counted as base64 text). */
  readonly maxImageBytes?: number | undefined;
  /** Whether {@link maxImageBytes} counts the base64 text rather than the raw bytes. */
  readonly imageBytesEncoded?: boolean | undefined;
  /** The most images in one request (the whole conversation is sent each time). */
  readonly maxImagesPerRequest?: number | undefined;
  /** The longest side of an image, in pixels. */
  readonly maxImageSide?: number | undefined;
  /** The most bytes of one document or audio clip. */
  readonly maxFileBytes?: number | undefined;
  /** The most documents in one request. */
  readonly maxFilesPerRequest?: number | undefined;
  /** The most media bytes in one request, as base64 text (what travels in the JSON body). */
  readonly maxRequestMediaBytes?: number | undefined;
}

/** Where a request's media sits: each part with the message that holds it. */
function* requestMedia(
  messages: readonly ConversationMessage[],
  toolResults: boolean,
): Generator<MediaPart> {
  for (const message of messages) {
    if (message.role === 'user' && typeof message.content !== 'string') {
      for (const part of message.content) {
        if (isMediaPart(part)) yield part;
      }
    } else if (toolResults && message.role === 'tool') yield* message.result.parts;
  }
}

/**
 * Checks the media of a request's conversation against a provider's
 * published limits, before anything is sent. @throws MediaError naming the
 * limit, its value, the provider and the fix.
 */
export function checkProviderMedia(
  limits: ProviderMediaLimits,
  messages: readonly ConversationMessage[],
): void {
  let images = 0;
  let files = 0;
  let encoded = 0;
  for (const part of requestMedia(messages, limits.mediaInToolResults === true)) {
    checkPart(limits, part);
    if (part.type === 'image') images += 1;
    else if (part.type === 'file') files += 1;
    encoded += base64Length(part.size);
  }
  if (images === 0 && files === 0 && encoded === 0) return;
  over(limits, 'images per request', limits.maxImagesPerRequest, images, 'Send fewer images');
  over(limits, 'documents per request', limits.maxFilesPerRequest, files, 'Send fewer documents');
  over(
    limits,
    'media bytes per request (base64)',
    limits.maxRequestMediaBytes,
    encoded,
    'Send fewer or smaller parts, or start a new conversation',
  );
}

function checkPart(limits: ProviderMediaLimits, part: MediaPart): void {
  const accepted = limits.types[part.type];
  const name = part.filename ?? part.hash.slice(0, 19);
  if (!accepted.includes(part.mediaType)) {
    throw new MediaError({
      subject: `The ${part.type} ${name} for ${limits.provider}`,
      problem:
        accepted.length === 0
          ? `${limits.provider} takes no ${part.type} parts.`
          : `${limits.provider} takes ${accepted.join(', ')}, not ${part.mediaType}.`,
      fix:
        accepted.length === 0
          ? `Leave the ${part.type} out for this provider, or use one that takes it.`
          : `Convert it to ${accepted.join(' or ')} first.`,
    });
  }
  if (part.url !== undefined && !limits.urlKinds.includes(part.type)) {
    throw new MediaError({
      subject: `The ${part.type} ${part.url} for ${limits.provider}`,
      problem: `${limits.provider} does not fetch ${part.type} URLs, and affordance fetches no URL itself.`,
      fix: `Download it in the application (from a host you trust) and pass the bytes to Media.${part.type}.`,
    });
  }
  if (part.type === 'image') {
    const size = limits.imageBytesEncoded === true ? base64Length(part.size) : part.size;
    const unit = limits.imageBytesEncoded === true ? 'bytes per image (base64)' : 'bytes per image';
    over(limits, unit, limits.maxImageBytes, size, `Downscale or recompress the image ${name}`);
    const side = Math.max(part.width ?? 0, part.height ?? 0);
    over(limits, 'pixels per image side', limits.maxImageSide, side, `Downscale the image ${name}`);
  } else {
    over(
      limits,
      `bytes per ${part.type}`,
      limits.maxFileBytes,
      part.size,
      `Split or shrink ${name}`,
    );
  }
}

function over(
  limits: ProviderMediaLimits,
  name: string,
  limit: number | undefined,
  actual: number,
  fix: string,
): void {
  if (limit === undefined || actual <= limit) return;
  throw new MediaError({
    subject: `The request to ${limits.provider}`,
    problem: `${actual} ${name} exceed the provider's published limit of ${limit}.`,
    fix: `${fix}.`,
    limit: { name, limit, actual, provider: limits.provider },
  });
}
