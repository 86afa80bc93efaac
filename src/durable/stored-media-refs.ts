import { type BlobStore, ConfigurationError, type JsonValue } from '../index.js';
import type { CodecLocation } from './codec-entry.js';

/** A media reference found in a stored value, with where it is. @internal */
export interface FoundRef {
  readonly hash: string;
  readonly mediaType: string;
  readonly size: unknown;
  readonly where: CodecLocation;
}

const kinds = new Set(['image', 'file', 'audio']);
const blobHash = /^sha256:[0-9a-f]{64}$/;

/**
 * Adds to `found` every `MediaRef` of bytes (a `sha256:` hash; a URL part
 * has no bytes to keep) in `json`, a value as the `SessionCodec` stores it:
 * an object with a media `type`, a `mediaType` and the hash, as plain JSON or
 * as the fields of a stored class instance. @internal
 */
export function collectMediaRefs(
  json: JsonValue,
  where: CodecLocation,
  found: Map<string, FoundRef>,
): void {
  const stack: JsonValue[] = [json];
  while (stack.length > 0) {
    const item = stack.pop() as JsonValue;
    if (item === null || typeof item !== 'object') continue;
    if (Array.isArray(item)) {
      stack.push(...item);
      continue;
    }
    const { hash, mediaType, type } = item;
    if (
      typeof hash === 'string' &&
      blobHash.test(hash) &&
      typeof mediaType === 'string' &&
      typeof type === 'string' &&
      kinds.has(type)
    ) {
      if (!found.has(hash)) found.set(hash, { hash, mediaType, size: item['size'], where });
      continue;
    }
    stack.push(...Object.values(item));
  }
}

/**
 * Checks that `blobs` holds the bytes of every reference in `found` (asked
 * once per hash, all at once), skipping the hashes in `known` and adding the
 * ones found to it. @internal
 * @throws ConfigurationError naming the first reference whose bytes are missing: its session, slice, value, hash and the fix.
 */
export async function checkBlobsPresent(
  blobs: BlobStore,
  found: ReadonlyMap<string, FoundRef>,
  doing: 'loaded' | 'stored',
  known = new Set<string>(),
): Promise<void> {
  const refs = [...found.values()].filter((ref) => !known.has(ref.hash));
  const present = await Promise.all(refs.map((ref) => blobs.has(ref.hash)));
  const missing = refs.find((_, index) => present[index] !== true);
  for (const [index, ref] of refs.entries()) if (present[index] === true) known.add(ref.hash);
  if (missing === undefined) return;
  const { sessionId, slice, index } = missing.where;
  const store = blobs.constructor.name;
  throw new ConfigurationError({
    subject: `Session ${sessionId}, slice ${slice}, value ${index}`,
    problem: `refers to media ${missing.hash} (${missing.mediaType}, ${String(missing.size)} bytes) whose bytes are not in the blob store (${store}); the session is not ${doing}${doing === 'stored' ? ' (nothing was written)' : ''}.`,
    fix:
      doing === 'loaded'
        ? `Restore the blob (${store}.put('${missing.hash}', bytes, '${missing.mediaType}')) from a backup, or give SessionPersistence the BlobStore the runtime wrote the media to ({ blobs }).`
        : 'Store the media through the runtime (its BlobStore takes the bytes before the event refers to them), and give SessionPersistence that same BlobStore ({ blobs }).',
  });
}
