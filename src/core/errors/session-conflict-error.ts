import { AffordanceError, type AffordanceErrorCode } from './affordance-error.js';

/** Fields of a {@link SessionConflictError}. */
export interface SessionConflictErrorOptions {
  /** The session that was written. */
  readonly sessionId: string;
  /** The version the writer read and expected to replace. */
  readonly expectedVersion: number;
  /** The version the store holds, when it could tell (`undefined` when unknown). */
  readonly actualVersion: number | undefined;
  /** How many times the write was tried (set by `commitWithRetry` when it gives up). */
  readonly attempts?: number | undefined;
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
  /** How many attempts were made, when `commitWithRetry` gave up. */
  readonly attempts: number | undefined;

  constructor(options: SessionConflictErrorOptions) {
    const actual =
      options.actualVersion === undefined
        ? 'a different version'
        : `version ${options.actualVersion}`;
    const message =
      options.attempts === undefined
        ? `Session ${options.sessionId}: another writer committed first (expected version ${options.expectedVersion}, the store holds ${actual}); nothing of this write was stored. Fix: load the session again and reapply the change, e.g. with commitWithRetry.`
        : `Session ${options.sessionId}: other writers committed first on each of ${options.attempts} attempts (last expected version ${options.expectedVersion}, the store held ${actual}); nothing of this write was stored. Fix: give commitWithRetry more attempts, or have fewer writers share the session.`;
    super('session_conflict', message, options);
    this.sessionId = options.sessionId;
    this.expectedVersion = options.expectedVersion;
    this.actualVersion = options.actualVersion;
    this.attempts = options.attempts;
  }
}
