import type { Container } from 'inversify';

import type { MediaPart } from '../../content/content-part.js';
import { MediaError } from '../../core/errors/media-error.js';
import { runtimeMedia, type ResolvedMediaLimits } from './runtime-media.js';

/** What one evaluation has sent so far: the bytes of each distinct part, counted once. */
interface MediaTally {
  bytes: number;
  readonly seen: Set<string>;
}

const tallies = new WeakMap<object, MediaTally>();

/**
 * Checks `parts` (one message's media, or one tool result's) against the
 * runtime's `MediaLimits`, then writes the bytes of each into the container's
 * `BlobStore` (before any event refers to them). `evaluation` keys the
 * per-evaluation byte count (a part sent again counts once). Resolves the
 * hashes this call stored for the first time; a failure deletes them again.
 * @throws MediaError naming the limit. @internal
 */
export async function storeMedia(
  root: Container,
  evaluation: object,
  parts: readonly MediaPart[],
  subject: string,
): Promise<readonly string[]> {
  if (parts.length === 0) return [];
  const { limits, store } = runtimeMedia(root);
  const tally = tallies.get(evaluation) ?? { bytes: 0, seen: new Set<string>() };
  const added = checkMediaLimits(subject, parts, limits, tally);
  const stored: string[] = [];
  try {
    for (const part of parts) {
      if (part.bytes === undefined) continue;
      if (await store.put(part.hash, part.bytes, part.mediaType)) stored.push(part.hash);
    }
  } catch (error) {
    await Promise.allSettled(stored.map((hash) => store.delete(hash)));
    throw error;
  }
  tally.bytes += added;
  for (const part of parts) tally.seen.add(part.hash);
  tallies.set(evaluation, tally);
  return stored;
}

/** Checks `parts` against `limits`; returns the bytes they add to the evaluation's count. */
function checkMediaLimits(
  subject: string,
  parts: readonly MediaPart[],
  limits: ResolvedMediaLimits,
  tally: MediaTally,
): number {
  if (parts.length > limits.maxPartsPerMessage) {
    throw limitError(
      subject,
      'maxPartsPerMessage',
      limits.maxPartsPerMessage,
      parts.length,
      'parts',
    );
  }
  let added = 0;
  const counted = new Set<string>();
  for (const part of parts) {
    if (part.size > limits.maxBytesPerPart) {
      throw limitError(
        `${subject}, ${describePart(part)}`,
        'maxBytesPerPart',
        limits.maxBytesPerPart,
        part.size,
        'bytes',
      );
    }
    const pixels = (part.width ?? 0) * (part.height ?? 0);
    if (pixels > limits.maxImagePixels) {
      throw limitError(
        `${subject}, ${describePart(part)}`,
        'maxImagePixels',
        limits.maxImagePixels,
        pixels,
        'pixels',
      );
    }
    if (!tally.seen.has(part.hash) && !counted.has(part.hash)) {
      counted.add(part.hash);
      added += part.size;
    }
  }
  if (tally.bytes + added > limits.maxBytesPerEvaluation) {
    throw limitError(
      subject,
      'maxBytesPerEvaluation',
      limits.maxBytesPerEvaluation,
      tally.bytes + added,
      'bytes of media in the evaluation',
    );
  }
  return added;
}

function describePart(part: MediaPart): string {
  return `the ${part.type} ${part.filename ?? part.hash.slice(0, 19)} (${part.mediaType})`;
}

function limitError(
  subject: string,
  name: string,
  limit: number,
  actual: number,
  unit: string,
): MediaError {
  return new MediaError({
    subject,
    problem: `${actual} ${unit} exceed the media limit ${name} of ${limit}.`,
    fix: `Send fewer or smaller parts, or raise ${name} in the runtime's media option (installAffordance(container, { media: { ${name} } })).`,
    limit: { name, limit, actual },
  });
}
