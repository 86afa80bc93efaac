import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { Media, type MediaKind, type MediaPart } from '../index.js';

/** One item of an MCP tool result's `content`. */
type McpContent = CallToolResult['content'][number];

/** What the content of a remote MCP tool's result becomes: text the model reads, and media parts. */
export interface McpResultContent {
  /** The text of each item, in order (a media item is named in it, so the model knows where it was). */
  readonly texts: readonly string[];
  /** The images, audio clips and files of the result, checked by the `Media` factories. */
  readonly parts: readonly MediaPart[];
}

/**
 * Reads an MCP result's content: text as it is; `image` and `audio` items and
 * embedded resources with a `blob` as media parts, built by the `Media`
 * factories, so their media types are checked against their bytes like any
 * other part (an item they refuse stays a note in the text saying why, and
 * the rest of the result stands); embedded text resources as their text,
 * which every provider reads; resource links as their URI. @internal
 */
export function mcpResultContent(result: CallToolResult): McpResultContent {
  const texts: string[] = [];
  const parts: MediaPart[] = [];
  const media = (
    kind: MediaKind,
    base64: string,
    mediaType: string,
    name: string,
    filename?: string,
  ) => {
    try {
      const part = build(kind, base64, mediaType, filename);
      parts.push(part);
      texts.push(`[${name}: ${part.mediaType}, ${part.size} bytes, attached]`);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      texts.push(`[${name} not attached: ${reason}]`);
    }
  };
  for (const item of result.content) {
    switch (item.type) {
      case 'text':
        texts.push(item.text);
        break;
      case 'image':
      case 'audio':
        media(item.type, item.data, item.mimeType, item.type);
        break;
      case 'resource_link':
        texts.push(`[resource ${item.uri}]`);
        break;
      case 'resource': {
        const resource = item.resource;
        if ('text' in resource) texts.push(resource.text);
        else {
          const mediaType = resource.mimeType ?? 'application/octet-stream';
          media(
            kindOf(mediaType),
            resource.blob,
            mediaType,
            `resource ${resource.uri}`,
            fileNameOf(resource.uri),
          );
        }
        break;
      }
      default:
        texts.push('[unsupported content]');
    }
  }
  return { texts, parts };
}

/**
 * A tool result's media parts as MCP content: images as `image`, audio as
 * `audio` (base64 data with their media type), documents as embedded
 * resources with a `blob`, named `affordance://media/<hex>/<file name>`; a
 * part that is a URL (no bytes here) as a resource link. @internal
 */
export function mcpContentOf(parts: readonly MediaPart[]): McpContent[] {
  return parts.map((part): McpContent => {
    if (part.bytes === undefined) {
      const name = part.filename ?? part.url ?? part.hash;
      return { type: 'resource_link', uri: part.url ?? part.hash, name, mimeType: part.mediaType };
    }
    const data = Buffer.from(
      part.bytes.buffer,
      part.bytes.byteOffset,
      part.bytes.byteLength,
    ).toString('base64');
    if (part.type === 'image' || part.type === 'audio') {
      return { type: part.type, data, mimeType: part.mediaType };
    }
    const hex = part.hash.slice(part.hash.indexOf(':') + 1);
    const uri = `affordance://media/${hex}/${encodeURIComponent(part.filename ?? 'file')}`;
    return { type: 'resource', resource: { uri, mimeType: part.mediaType, blob: data } };
  });
}

function build(
  kind: MediaKind,
  base64: string,
  mediaType: string,
  filename: string | undefined,
): MediaPart {
  const options = filename === undefined ? { mediaType } : { mediaType, filename };
  if (kind === 'image') return Media.image({ base64 }, options);
  if (kind === 'audio') return Media.audio({ base64 }, options);
  return Media.file({ base64 }, options);
}

function kindOf(mediaType: string): MediaKind {
  if (mediaType.startsWith('image/')) return 'image';
  if (mediaType.startsWith('audio/')) return 'audio';
  return 'file';
}

/** The last path segment of `uri`, decoded, when it looks like a file name. */
function fileNameOf(uri: string): string | undefined {
  const last = uri.split(/[/\\]/).pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  return /^[^/\\?#\p{Cc}]{1,200}\.[A-Za-z0-9]{1,10}$/u.test(name) ? name : undefined;
}
