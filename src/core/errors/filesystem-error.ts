import { AffordanceError, type AffordanceErrorCode } from './affordance-error.js';

/** The filesystem operation that failed. */
export type FilesystemOperation =
  'read' | 'write' | 'edit' | 'list' | 'glob' | 'grep' | 'remove' | 'mkdir' | 'stat' | 'restore';

/** Why a filesystem operation failed, for code that reacts to the kind of failure. */
export type FilesystemErrorReason =
  | 'not_found'
  | 'already_exists'
  | 'not_a_file'
  | 'not_a_directory'
  | 'directory_not_empty'
  | 'outside_root'
  | 'invalid_path'
  | 'invalid_argument'
  | 'invalid_text'
  | 'no_match'
  | 'ambiguous_match'
  | 'limit_exceeded'
  | 'read_only';

/** Fields of a {@link FilesystemError}. */
export interface FilesystemErrorOptions {
  /** The operation that failed. */
  readonly operation: FilesystemOperation;
  /** The path as the caller gave it. */
  readonly path: string;
  /** The kind of failure. */
  readonly reason: FilesystemErrorReason;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/**
 * A filesystem operation was refused: a missing file, a path outside the root,
 * a size limit, an ambiguous edit. The message is written for the model, which
 * can correct the call, so tools return it rather than abort.
 */
export class FilesystemError extends AffordanceError {
  static override readonly errorCode: AffordanceErrorCode = 'filesystem';

  /** The operation that failed. */
  readonly operation: FilesystemOperation;
  /** The path as the caller gave it. */
  readonly path: string;
  /** The kind of failure. */
  readonly reason: FilesystemErrorReason;

  /** @param message what went wrong and how to fix it; the operation and path are prefixed. */
  constructor(message: string, options: FilesystemErrorOptions) {
    super('filesystem', `${options.operation} '${options.path}': ${message}`, options);
    this.operation = options.operation;
    this.path = options.path;
    this.reason = options.reason;
  }
}
