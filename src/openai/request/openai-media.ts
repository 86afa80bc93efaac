import { isMediaPart, type MediaPart, type MessageContent } from '../../index.js';
import {
  base64Of,
  checkProviderMedia,
  type ConversationMessage,
  dataUrlOf,
  type ProviderMediaLimits,
} from '../../provider/index.js';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const TEXT_FILES = ['text/plain', 'text/csv', 'text/markdown', 'application/json'];

/**
 * OpenAI's published media limits for the Responses API: PNG, JPEG, WebP and
 * GIF images, an image's data URL at most 20,971,520 characters (the OpenAPI
 * document's `maxLength`), up to 500 images and 50 MB of media per request;
 * PDF and text documents up to 50 MB each (`input_file`); no audio input.
 */
export const OPENAI_RESPONSES_MEDIA: ProviderMediaLimits = Object.freeze<ProviderMediaLimits>({
  provider: 'openai (responses)',
  types: { image: IMAGE_TYPES, file: ['application/pdf', ...TEXT_FILES], audio: [] },
  urlKinds: ['image', 'file'],
  mediaInToolResults: true,
  maxImageBytes: 20_971_520 - 64,
  imageBytesEncoded: true,
  maxImagesPerRequest: 500,
  maxFileBytes: 50 * 1024 * 1024,
  maxRequestMediaBytes: 50 * 1024 * 1024,
});

/**
 * OpenAI's published media limits for Chat Completions: the same images
 * (`image_url` parts), PDF documents as `file` parts (bytes only), WAV and MP3
 * audio as `input_audio` (bytes only); tool messages take text only.
 */
export const OPENAI_CHAT_MEDIA: ProviderMediaLimits = Object.freeze<ProviderMediaLimits>({
  provider: 'openai (chat completions)',
  types: { image: IMAGE_TYPES, file: ['application/pdf'], audio: ['audio/wav', 'audio/mpeg'] },
  urlKinds: ['image'],
  maxImageBytes: 20_971_520 - 64,
  imageBytesEncoded: true,
  maxImagesPerRequest: 500,
  maxFileBytes: 50 * 1024 * 1024,
  maxRequestMediaBytes: 50 * 1024 * 1024,
});

/** Checks the request's media against `limits` (only when a message holds any: text requests pay one scan). */
export function checkOpenAIMedia(
  limits: ProviderMediaLimits,
  messages: readonly ConversationMessage[],
): void {
  checkProviderMedia(limits, messages);
}

/** A Responses content part for `part` (`input_image`, `input_file`). */
export function responsesPart(part: MediaPart): Record<string, unknown> {
  if (part.type === 'image')
    return { type: 'input_image', image_url: dataUrlOf(part), detail: 'auto' };
  if (part.url !== undefined) return { type: 'input_file', file_url: part.url };
  return {
    type: 'input_file',
    filename: part.filename ?? defaultName(part),
    file_data: dataUrlOf(part),
  };
}

/** A user message's content as Responses content parts (a string stays a string). */
export function responsesContent(content: MessageContent): string | Record<string, unknown>[] {
  if (typeof content === 'string') return content;
  return content.map((part) =>
    isMediaPart(part) ? responsesPart(part) : { type: 'input_text', text: part.text },
  );
}

/** A user message's content as Chat Completions content parts (a string stays a string). */
export function chatContent(content: MessageContent): string | Record<string, unknown>[] {
  if (typeof content === 'string') return content;
  return content.map((part) => {
    if (!isMediaPart(part)) return { type: 'text', text: part.text };
    if (part.type === 'image') return { type: 'image_url', image_url: { url: dataUrlOf(part) } };
    if (part.type === 'audio') {
      return {
        type: 'input_audio',
        input_audio: {
          data: base64Of(part),
          format: part.mediaType === 'audio/wav' ? 'wav' : 'mp3',
        },
      };
    }
    return {
      type: 'file',
      file: { filename: part.filename ?? defaultName(part), file_data: dataUrlOf(part) },
    };
  });
}

function defaultName(part: MediaPart): string {
  const extension = part.mediaType === 'application/pdf' ? 'pdf' : 'txt';
  return `${part.hash.slice(7, 19)}.${extension}`;
}
