import { AffordanceError, type AffordanceErrorCode } from './affordance-error.js';

/** Fields of a {@link SessionConflictError}. */
export interface SessionConflictErrorOptions {
  /** The session that was written. */
  readonly sessionId: string;
  /** The version the writer read and expected to replace. */
  readonly expectedVersion: number;
  /** The version the store holds, when it could tell (`undefined` when unknown). */
  readonly actualVersion: number | undefined;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/**
 * A write to a stored session was refused because another writer committed
 * first: the version the writer loaded is no longer the stored one. Nothing of
 * the refused write was stored. Reload the session and apply the change again
 * (`commitWithRetry` in `affordance/durable` does this).
 */
export class SessionConflictError extends AffordanceError {
  static override readonly errorCode: AffordanceErrorCode = 'session_conflict';

  /** The session that was written. */
  readonly sessionId: string;
  /** The version the writer expected. */
  readonly expectedVersion: number;
  /** The version the store holds, when known. */
  readonly actualVersion: number | undefined;

  constructor(options: SessionConflictErrorOptions) {
    const actual =
      options.actualVersion === undefined
        ? 'a different version'
        : `version ${options.actualVersion}`;
    super(
      'session_conflict',
      `Session ${options.sessionId}: another writer committed first (expected version ${options.expectedVersion}, the store holds ${actual}); nothing of this write was stored. Fix: load the session again and reapply the change, e.g. with commitWithRetry.`,
      options,
    );
    this.sessionId = options.sessionId;
    this.expectedVersion = options.expectedVersion;
    this.actualVersion = options.actualVersion;
  }
}
