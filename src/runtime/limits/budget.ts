import { ConfigurationError } from '../../core/errors/configuration-error.js';
import type { Deadline } from './deadline.js';

/** Token dimensions a {@link Budget} can limit, as named in `BudgetExceededError.dimension`. */
export type BudgetDimension = 'inputTokens' | 'outputTokens' | 'totalTokens';

/** Limits of a {@link Budget}; set at least one. */
export interface BudgetInit {
  /** Latest time by which the evaluation must finish. */
  readonly deadline?: Deadline | undefined;
  /** Limit on input plus output tokens. */
  readonly maxTotalTokens?: number | undefined;
  /** Limit on input (prompt) tokens. */
  readonly maxInputTokens?: number | undefined;
  /** Limit on output (completion) tokens. */
  readonly maxOutputTokens?: number | undefined;
}

/**
 * Resource limits for one or more evaluations: token counts and, optionally,
 * a deadline. Track consumption against it with a `BudgetTracker`. Frozen.
 */
export class Budget {
  /** Latest time by which the evaluation must finish, if any. */
  readonly deadline: Deadline | undefined;
  /** Limit on input plus output tokens, if any. */
  readonly maxTotalTokens: number | undefined;
  /** Limit on input tokens, if any. */
  readonly maxInputTokens: number | undefined;
  /** Limit on output tokens, if any. */
  readonly maxOutputTokens: number | undefined;

  constructor(init: BudgetInit) {
    this.deadline = init.deadline;
    this.maxTotalTokens = checkLimit('maxTotalTokens', init.maxTotalTokens);
    this.maxInputTokens = checkLimit('maxInputTokens', init.maxInputTokens);
    this.maxOutputTokens = checkLimit('maxOutputTokens', init.maxOutputTokens);
    if (
      this.deadline === undefined &&
      this.maxTotalTokens === undefined &&
      this.maxInputTokens === undefined &&
      this.maxOutputTokens === undefined
    ) {
      throw new ConfigurationError({
        subject: 'Budget',
        problem: 'requires at least one limit to be set.',
        fix: 'Pass deadline, maxTotalTokens, maxInputTokens or maxOutputTokens, or pass no budget at all.',
      });
    }
    Object.freeze(this);
  }

  /** The token limit of `dimension`, if one is set. */
  limitOf(dimension: BudgetDimension): number | undefined {
    switch (dimension) {
      case 'inputTokens':
        return this.maxInputTokens;
      case 'outputTokens':
        return this.maxOutputTokens;
      case 'totalTokens':
        return this.maxTotalTokens;
    }
  }
}

function checkLimit(field: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new ConfigurationError({
      subject: `Budget.${field}`,
      problem: `must be a positive integer, got ${String(value)}.`,
      fix: `Set ${field} to the largest token count you accept, e.g. ${field}: 10_000, or leave it out.`,
    });
  }
  return value;
}
