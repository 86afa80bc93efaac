import { type ContentPart, isMediaPart, type MediaPart } from '../../content/content-part.js';
import { Media } from '../../content/media.js';
import { MediaError } from '../../core/errors/media-error.js';
import type { EvaluationScope } from '../scope/evaluation-scope.js';
import { runtimeMedia } from './runtime-media.js';

/**
 * `parts` with each URL part the runtime's `fetchMedia` allows replaced by a
 * part built from the downloaded bytes (checked by the `Media` factories
 * against the part's media type). Without `fetchMedia`, or for a URL it does
 * not allow, the part stays a URL for the provider to fetch; an `http:` part
 * not fetched is refused. @throws MediaError naming the URL and the limit. @internal
 */
export async function fetchAllowedMedia(
  scope: EvaluationScope,
  parts: readonly ContentPart[],
): Promise<readonly ContentPart[]> {
  if (!parts.some((part) => isMediaPart(part) && part.url !== undefined)) return parts;
  const { fetchMedia, limits } = runtimeMedia(scope.root);
  const out: ContentPart[] = [];
  for (const part of parts) {
    if (!isMediaPart(part) || part.url === undefined) out.push(part);
    else if (fetchMedia !== undefined && allows(fetchMedia.allow, new URL(part.url))) {
      const maxBytes = fetchMedia.maxBytes ?? limits.maxBytesPerPart;
      out.push(await download(part, part.url, maxBytes, scope.cancellation.signal));
    } else if (!part.url.startsWith('https:')) {
      throw new MediaError({
        subject: `The ${part.type} ${part.url} in the input of ${scope.prompt.label}`,
        problem: 'an http: URL is sent to no provider, and fetchMedia does not allow its origin.',
        fix: `Name its origin with the scheme in the runtime's fetchMedia.allow (e.g. '${new URL(part.url).origin}'), or pass the bytes.`,
      });
    } else out.push(part);
  }
  return out;
}

/** Whether `allow` names `url`: a host for `https:` URLs, or the exact origin with its scheme. */
function allows(allow: readonly string[], url: URL): boolean {
  return allow.some((entry) =>
    entry.includes('://')
      ? safeOrigin(entry) === url.origin
      : url.protocol === 'https:' && entry.toLowerCase() === url.host,
  );
}

function safeOrigin(entry: string): string | undefined {
  try {
    return new URL(entry).origin;
  } catch {
    return undefined;
  }
}

/** Downloads `url` without following redirects, counting the bytes as they stream, and checks them with `Media`. */
async function download(
  part: MediaPart,
  url: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<MediaPart> {
  const subject = `Fetching the ${part.type} ${url}`;
  const refused = (problem: string, fix: string, extra: object = {}) =>
    new MediaError({ subject, problem, fix, ...extra });
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'error', signal });
  } catch (cause) {
    throw refused(
      'the request failed (a redirect is not followed).',
      'Check the URL, or pass the bytes.',
      { cause },
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw refused(`the server answered ${response.status}.`, 'Check the URL, or pass the bytes.');
  }
  const tooBig = (actual: number) =>
    refused(
      `it is over fetchMedia.maxBytes (${maxBytes} bytes).`,
      "Raise fetchMedia.maxBytes in the runtime's options, or send a smaller file.",
      { limit: { name: 'fetchMedia.maxBytes', limit: maxBytes, actual } },
    );
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooBig(declared);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader: ReadableStreamDefaultReader<Uint8Array> | undefined = response.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (next === undefined || next.done) break;
    const chunk: Uint8Array = next.value;
    size += chunk.byteLength;
    if (size > maxBytes) {
      await reader?.cancel();
      throw tooBig(size);
    }
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return Media[part.type](bytes, { mediaType: part.mediaType, filename: part.filename });
}
