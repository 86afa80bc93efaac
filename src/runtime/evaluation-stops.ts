import { BudgetExceededError } from '../core/errors/budget-exceeded-error.js';
import { DeadlineExceededError } from '../core/errors/deadline-exceeded-error.js';
import {
  PromptEvaluationError,
  type PromptEvaluationPhase,
} from '../core/errors/prompt-evaluation-error.js';
import type { TokenUsage } from '../provider/token-usage.js';
import type { EvaluationScope } from './scope/evaluation-scope.js';

/**
 * The error that stops the evaluation when its deadline passed or it was
 * cancelled, else `undefined`; `activity` says when (e.g. "before the
 * provider request"). @internal
 */
export function stopIfOver(
  scope: EvaluationScope,
  activity: string,
  phase: PromptEvaluationPhase = 'tool',
): PromptEvaluationError | undefined {
  if (scope.deadline?.expired === true) {
    return new PromptEvaluationError(`Deadline expired ${activity}.`, {
      phase,
      prompt: scope.prompt.label,
      providerPayload: { deadlineExpiresAt: scope.deadline.expiresAt.toISOString() },
    });
  }
  if (scope.cancellation.aborted) {
    return new PromptEvaluationError(`Evaluation was cancelled ${activity}.`, {
      phase,
      prompt: scope.prompt.label,
      cause: scope.cancellation.reason,
    });
  }
  return undefined;
}

/**
 * Records the evaluation's cumulative `usage` in its budget tracker, if any,
 * and throws the `PromptEvaluationError` (phase `budget`) that stops it when
 * the budget (or the budget's own deadline) is exceeded. @internal
 */
export function checkBudget(scope: EvaluationScope, usage: TokenUsage | undefined): void {
  const tracker = scope.budgetTracker;
  if (tracker === undefined) return;
  if (usage !== undefined) tracker.recordCumulative(scope.evaluationId, usage);
  try {
    tracker.check();
  } catch (error) {
    // The budget's own deadline surfaces as a DeadlineExceededError; both end the evaluation the same way.
    if (BudgetExceededError.is(error) || DeadlineExceededError.is(error)) {
      throw new PromptEvaluationError(error.message, {
        phase: 'budget',
        prompt: scope.prompt.label,
        cause: error,
      });
    }
    throw error;
  }
}
