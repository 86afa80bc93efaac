import type { Container } from 'inversify';

import { BlobStore, InMemoryBlobStore } from '../../content/blob-store.js';
import { type MediaLimits, resolveMediaLimits } from '../../content/media-limits.js';
import type { FetchMediaOptions } from './fetch-media-options.js';

/** The media limits of a runtime with every default filled in. @internal */
export type ResolvedMediaLimits = ReturnType<typeof resolveMediaLimits>;

/** A runtime's media settings: its limits and the default store used when the container binds none. */
interface RuntimeMediaSettings {
  readonly limits: ResolvedMediaLimits;
  readonly fallbackStore: InMemoryBlobStore;
  /** The runtime's `fetchMedia` opt-in; absent: the library fetches no URL. */
  readonly fetchMedia?: FetchMediaOptions | undefined;
}

const settings = new WeakMap<Container, RuntimeMediaSettings>();

/** Notes the media limits of the runtime installed in `root`. @internal */
export function setRuntimeMedia(
  root: Container,
  limits: MediaLimits | undefined,
  fetchMedia?: FetchMediaOptions,
): RuntimeMediaSettings {
  const own = {
    limits: resolveMediaLimits(limits),
    fallbackStore: settings.get(root)?.fallbackStore ?? new InMemoryBlobStore(),
    fetchMedia,
  };
  settings.set(root, own);
  return own;
}

/**
 * The media limits and `BlobStore` of the runtime installed in `root`: the
 * store bound to `BlobStore` in the container, else the runtime's own
 * `InMemoryBlobStore`. @internal
 */
export function runtimeMedia(root: Container): {
  readonly limits: ResolvedMediaLimits;
  readonly store: BlobStore;
  readonly fetchMedia: FetchMediaOptions | undefined;
} {
  const own = settings.get(root) ?? setRuntimeMedia(root, undefined);
  const store = root.isBound(BlobStore) ? root.get(BlobStore) : own.fallbackStore;
  return { limits: own.limits, store, fetchMedia: own.fetchMedia };
}
