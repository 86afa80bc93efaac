/** Size limits of an in-memory filesystem; each one is enforced with a clear `FilesystemError`. */
export interface FilesystemLimits {
  /** Largest file, in UTF-8 bytes. Default 1 MiB. */
  readonly maxFileBytes: number;
  /** Largest sum of all file sizes, in UTF-8 bytes. Default 64 MiB. */
  readonly maxTotalBytes: number;
  /** Most files. Default 100 000. */
  readonly maxFiles: number;
  /** Most path segments below the root. Default 16. */
  readonly maxPathDepth: number;
  /** Longest file or directory name, in characters. Default 80. */
  readonly maxSegmentLength: number;
  /** Most matches one grep returns. Default 1000. */
  readonly maxGrepMatches: number;
  /** Lines `read` returns when no limit is given. Default 2000. */
  readonly defaultReadLines: number;
}

/** The default {@link FilesystemLimits}. */
export const defaultFilesystemLimits: FilesystemLimits = Object.freeze({
  maxFileBytes: 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
  maxFiles: 100_000,
  maxPathDepth: 16,
  maxSegmentLength: 80,
  maxGrepMatches: 1_000,
  defaultReadLines: 2_000,
});
