import { EvaluationStateError } from '../../core/errors/evaluation-state-error.js';
import type { Prompt } from '../../prompt/prompt.js';
import { Budget } from '../limits/budget.js';
import type { EvaluationScope } from '../scope/evaluation-scope.js';
import { type CheckedResume, checkContract } from './check-resume.js';
import type { EvaluationState } from './evaluation-state.js';
import { type ResumePoint, resumePoint } from './resume-point.js';

/** The token limits a paused evaluation ran under. @internal */
export function savedBudget(state: EvaluationState | undefined): Budget | undefined {
  const saved = state?.budget;
  if (saved === undefined || saved === null) return undefined;
  return new Budget({
    maxTotalTokens: saved.maxTotalTokens ?? undefined,
    maxInputTokens: saved.maxInputTokens ?? undefined,
    maxOutputTokens: saved.maxOutputTokens ?? undefined,
  });
}

/**
 * Checks the rendered prompt still offers the saved tools and builds the
 * resume point; the budget tracker gets the usage so far.
 */
export function openResume(scope: EvaluationScope, checked: CheckedResume): () => ResumePoint {
  checkContract(checked.state, scope.rendered, scope.prompt.label);
  const point = resumePoint(checked.state, checked.decisions, scope.session);
  if (point.usage !== undefined) {
    scope.budgetTracker?.recordCumulative(scope.evaluationId, point.usage);
  }
  return () => point;
}

export function alreadyResuming(state: EvaluationState, prompt: Prompt): EvaluationStateError {
  return new EvaluationStateError({
    subject: `Resuming evaluation ${state.evaluationId} of ${prompt.label}`,
    problem: `state ${state.stateId} is being resumed right now.`,
    fix: 'Resume a state once: take it from a store that hands each state out once, as InMemoryEvaluationStateStore.take does.',
  });
}
