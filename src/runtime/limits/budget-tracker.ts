import { BudgetExceededError } from '../../core/errors/budget-exceeded-error.js';
import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { TokenUsage } from '../../provider/token-usage.js';
import type { Budget, BudgetDimension } from './budget.js';

const checkOrder: readonly BudgetDimension[] = ['inputTokens', 'outputTokens', 'totalTokens'];

/**
 * Accumulates token usage against a {@link Budget}. Each evaluation reports its
 * cumulative usage under its own id (a later report replaces the earlier one),
 * and `consumed` sums over every evaluation, so nested evaluations sharing one
 * tracker share one budget.
 */
export class BudgetTracker {
  /** The limits being enforced. */
  readonly budget: Budget;
  private readonly usage = new Map<string, TokenUsage>();

  constructor(budget: Budget) {
    this.budget = budget;
  }

  /** Replaces the cumulative usage recorded for `evaluationId`. */
  recordCumulative(evaluationId: string, usage: TokenUsage): void {
    if (typeof evaluationId !== 'string' || evaluationId === '') {
      throw new ConfigurationError({
        subject: 'BudgetTracker.recordCumulative',
        problem: 'needs a non-empty evaluation id.',
        fix: 'Pass the id of the evaluation whose cumulative usage this is.',
      });
    }
    if (!(usage instanceof TokenUsage)) {
      throw new ConfigurationError({
        subject: 'BudgetTracker.recordCumulative',
        problem: 'expected a TokenUsage.',
        fix: 'Build one with new TokenUsage({...}) or TokenUsage.fromProviderUsage(response.usage).',
      });
    }
    this.usage.set(evaluationId, usage);
  }

  /** The cumulative usage recorded for `evaluationId`, if any. */
  usageFor(evaluationId: string): TokenUsage | undefined {
    return this.usage.get(evaluationId);
  }

  /** Ids of every evaluation that reported usage, in first-report order. */
  get evaluationIds(): readonly string[] {
    return [...this.usage.keys()];
  }

  /** Usage summed over every evaluation. */
  get consumed(): TokenUsage {
    let total = new TokenUsage();
    for (const usage of this.usage.values()) total = total.plus(usage);
    return total;
  }

  /**
   * Tokens left per limited dimension (never negative); dimensions without a
   * limit are absent.
   */
  remaining(): Partial<Record<BudgetDimension, number>> {
    const consumed = this.consumed;
    const left: Partial<Record<BudgetDimension, number>> = {};
    for (const dimension of checkOrder) {
      const limit = this.budget.limitOf(dimension);
      if (limit !== undefined) left[dimension] = Math.max(0, limit - (consumed[dimension] ?? 0));
    }
    return left;
  }

  /**
   * Throws when a limit is breached: the deadline first (`DeadlineExceededError`),
   * then input, output and total tokens (`BudgetExceededError` naming the
   * dimension). A limit is breached when usage is strictly greater than it.
   */
  check(): void {
    this.budget.deadline?.throwIfExpired('the budget check');
    const consumed = this.consumed;
    for (const dimension of checkOrder) {
      const limit = this.budget.limitOf(dimension);
      const used = consumed[dimension] ?? 0;
      if (limit !== undefined && used > limit) {
        throw new BudgetExceededError({ dimension, limit, used });
      }
    }
  }
}
