import { AffordanceError, type AffordanceErrorCode } from './affordance-error.js';

/** Fields of a {@link DeadlineExceededError}. */
export interface DeadlineExceededErrorOptions {
  /** The deadline that passed. */
  readonly deadline?: Date | undefined;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/** The evaluation's deadline passed. Tools may throw it to stop the evaluation. */
export class DeadlineExceededError extends AffordanceError {
  static override readonly errorCode: AffordanceErrorCode = 'deadline_exceeded';

  /** The deadline that passed, if known. */
  readonly deadline: Date | undefined;

  constructor(message: string, options: DeadlineExceededErrorOptions = {}) {
    super('deadline_exceeded', message, options);
    this.deadline = options.deadline;
  }
}
