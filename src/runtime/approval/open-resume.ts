import { EvaluationStateError } from '../../core/errors/evaluation-state-error.js';
import type { Prompt } from '../../prompt/prompt.js';
import { Budget } from '../limits/budget.js';
import type { EvaluationScope } from '../scope/evaluation-scope.js';
import { type CheckedResume, checkContract } from './check-resume.js';
import type { EvaluationState } from './evaluation-state.js';
import { recoverCalls } from './recover-calls.js';
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
  const { state, recovery } = checked;
  checkContract(state, scope.rendered, scope.prompt.label);
  let point: ResumePoint;
  if (recovery === undefined) {
    point = resumePoint(state, checked.decisions, scope.session);
  } else {
    // Calls recorded after the checkpoint, or interrupted by the crash, are settled before the rest run.
    const recovered = recoverCalls(scope, state.remaining, recovery);
    const base = resumePoint(state, checked.decisions, scope.session);
    point = Object.assign({}, base, {
      messages: [...base.messages, ...recovered.messages],
      remaining: recovered.remaining,
    });
  }
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
