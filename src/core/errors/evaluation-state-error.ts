import { AffordanceError, type AffordanceErrorCode } from './affordance-error.js';

/** Fields of an {@link EvaluationStateError}. */
export interface EvaluationStateErrorOptions {
  /** What was refused, e.g. `Resuming evaluation 1f0c… of support/refunds`. */
  readonly subject: string;
  /** Why, as one sentence. */
  readonly problem: string;
  /** What to do instead. */
  readonly fix: string;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/**
 * A paused evaluation's saved state was refused: it is unsigned or was
 * altered, is stale (its session moved on, it was already resumed) or the
 * session given is not the one it paused in, belongs to another prompt,
 * provider or session, or the decisions do not match its pending calls. Nothing
 * was run or recorded; the state can still be resumed once the problem is fixed.
 */
export class EvaluationStateError extends AffordanceError {
  static override readonly errorCode: AffordanceErrorCode = 'evaluation_state';

  /** What was refused. */
  readonly subject: string;
  /** Why. */
  readonly problem: string;
  /** What to do instead. */
  readonly fix: string;

  constructor(options: EvaluationStateErrorOptions) {
    super(
      'evaluation_state',
      `${options.subject}: ${options.problem} Fix: ${options.fix}`,
      options,
    );
    this.subject = options.subject;
    this.problem = options.problem;
    this.fix = options.fix;
  }
}
