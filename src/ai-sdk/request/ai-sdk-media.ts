import type { LanguageModelV3FilePart, LanguageModelV3ToolResultOutput } from '@ai-sdk/provider';

import { isMediaPart, type MediaPart, type MessageContent } from '../../index.js';
import { base64Of } from '../../provider/index.js';

type UserPart = { type: 'text'; text: string } | LanguageModelV3FilePart;

/** A user message's content as AI SDK prompt parts: text parts, and `file` parts holding the bytes or URL. */
export function userParts(content: MessageContent): UserPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part): UserPart => {
    if (!isMediaPart(part)) return { type: 'text', text: part.text };
    return {
      type: 'file',
      mediaType: part.mediaType,
      // The part's own bytes: the AI SDK provider encodes them as its API wants.
      data: part.url === undefined ? (part.bytes as Uint8Array) : new URL(part.url),
      ...(part.filename === undefined ? {} : { filename: part.filename }),
    };
  });
}

/** A tool result with media as AI SDK `content` output: its text, then each image or file. */
export function toolOutput(
  text: string,
  parts: readonly MediaPart[],
): LanguageModelV3ToolResultOutput {
  if (parts.length === 0) return { type: 'text', value: text };
  return {
    type: 'content',
    value: [
      { type: 'text', text },
      ...parts.map((part) => {
        if (part.url !== undefined) {
          return part.type === 'image'
            ? { type: 'image-url' as const, url: part.url }
            : { type: 'file-url' as const, url: part.url, mediaType: part.mediaType };
        }
        return part.type === 'image'
          ? { type: 'image-data' as const, data: base64Of(part), mediaType: part.mediaType }
          : {
              type: 'file-data' as const,
              data: base64Of(part),
              mediaType: part.mediaType,
              ...(part.filename === undefined ? {} : { filename: part.filename }),
            };
      }),
    ],
  };
}
