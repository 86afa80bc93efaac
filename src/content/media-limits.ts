/**
 * The library's own bounds on media, a runtime option (`RuntimeOptions.media`)
 * checked before anything is recorded or sent; each refusal is a `MediaError`
 * naming the limit. Providers' published limits are checked by each adapter on
 * top of these.
 */
export interface MediaLimits {
  /** The most media parts one message (or one tool result) may hold. Default 20. */
  readonly maxPartsPerMessage?: number | undefined;
  /** The most bytes of one part. Default 20 MiB. */
  readonly maxBytesPerPart?: number | undefined;
  /** The most media bytes one evaluation may send (input and tool results together, each part once). Default 50 MiB. */
  readonly maxBytesPerEvaluation?: number | undefined;
  /**
   * The most pixels (width × height, from the image header) an image may
   * declare: a small file that decodes to a huge bitmap (a decompression bomb)
   * is refused. Default 8000 × 8000 (64 megapixels).
   */
  readonly maxImagePixels?: number | undefined;
}

/** The defaults of {@link MediaLimits}, every field set. */
export const DEFAULT_MEDIA_LIMITS: Required<{ readonly [K in keyof MediaLimits]: number }> =
  Object.freeze({
    maxPartsPerMessage: 20,
    maxBytesPerPart: 20 * 1024 * 1024,
    maxBytesPerEvaluation: 50 * 1024 * 1024,
    maxImagePixels: 8000 * 8000,
  });

/** `limits` with every default filled in. */
export function resolveMediaLimits(
  limits: MediaLimits | undefined,
): Required<{ readonly [K in keyof MediaLimits]: number }> {
  return {
    maxPartsPerMessage: limits?.maxPartsPerMessage ?? DEFAULT_MEDIA_LIMITS.maxPartsPerMessage,
    maxBytesPerPart: limits?.maxBytesPerPart ?? DEFAULT_MEDIA_LIMITS.maxBytesPerPart,
    maxBytesPerEvaluation:
      limits?.maxBytesPerEvaluation ?? DEFAULT_MEDIA_LIMITS.maxBytesPerEvaluation,
    maxImagePixels: limits?.maxImagePixels ?? DEFAULT_MEDIA_LIMITS.maxImagePixels,
  };
}
