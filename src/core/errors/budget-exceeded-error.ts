import { AffordanceError, type AffordanceErrorCode } from './affordance-error.js';

/** Fields of a {@link BudgetExceededError}. */
export interface BudgetExceededErrorOptions {
  /** The exceeded dimension, e.g. `totalTokens`, `inputTokens`, `outputTokens`. */
  readonly dimension: string;
  /** The configured limit. */
  readonly limit: number;
  /** What was consumed when the check ran. */
  readonly used: number;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/** A token budget was exceeded; the message names the dimension, the limit and the usage. */
export class BudgetExceededError extends AffordanceError {
  static override readonly errorCode: AffordanceErrorCode = 'budget_exceeded';

  /** The exceeded dimension. */
  readonly dimension: string;
  /** The configured limit. */
  readonly limit: number;
  /** What was consumed. */
  readonly used: number;

  constructor(options: BudgetExceededErrorOptions) {
    super(
      'budget_exceeded',
      `Budget exceeded: ${options.dimension} used ${options.used} of ${options.limit}. ` +
        'Raise the limit in the Budget or shorten the conversation.',
      options,
    );
    this.dimension = options.dimension;
    this.limit = options.limit;
    this.used = options.used;
  }
}
