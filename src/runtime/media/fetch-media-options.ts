/**
 * The opt-in that lets the runtime download media URLs itself (`RuntimeOptions.fetchMedia`), for providers that
 * cannot fetch a URL. Only the input's URL parts are fetched, only over `https:` from a host `allow` names, without
 * following redirects, and at most `maxBytes` each (counted while the body streams); the bytes are checked with the
 * `Media` factories against the part's media type. Without this option the library fetches nothing.
 *
 * @example
 * installAffordance(container, { fetchMedia: { allow: ['cdn.example.com'], maxBytes: 5 * 1024 * 1024 } });
 */
export interface FetchMediaOptions {
  /**
   * The hosts whose URLs are fetched: a host name (`cdn.example.com`, or `cdn.example.com:8443` with a port) allows
   * its `https:` URLs; an origin with its scheme (`http://127.0.0.1:8080`) allows exactly that origin, the only way
   * to fetch over `http:` (a local server in tests).
   */
  readonly allow: readonly string[];
  /** The most bytes one URL may return. Default: the runtime's `media.maxBytesPerPart`. */
  readonly maxBytes?: number | undefined;
}
