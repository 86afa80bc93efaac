import type { EvalExpectations } from './eval-case.js';
import type { EvalScorer } from './eval-case.js';
import { answerContains, answerEquals, answerMatches } from './scorers/answer-scorers.js';
import { withinBudget } from './scorers/budget-scorer.js';
import { outputFields } from './scorers/output-scorers.js';
import { calledInOrder, maxToolCalls, neverCalled } from './scorers/trajectory-scorers.js';

/**
 * The built-in scorers a case's expectations stand for, one per field given,
 * named after it: `answer-equals`, `answer-contains`, `answer-matches`,
 * `output-fields`, `calls-in-order`, `never-called`, `max-calls`, `budget`.
 */
export function expectationScorers(expected: EvalExpectations | undefined): EvalScorer[] {
  if (expected === undefined) return [];
  const scorers: EvalScorer[] = [];
  if (expected.answer !== undefined) scorers.push(answerEquals(expected.answer));
  if (expected.contains !== undefined) scorers.push(answerContains(expected.contains));
  if (expected.matches !== undefined) scorers.push(answerMatches(expected.matches));
  if (expected.output !== undefined) scorers.push(outputFields(expected.output));
  if (expected.calls !== undefined && expected.calls.length > 0) {
    scorers.push(calledInOrder(expected.calls));
  }
  if (expected.notCalled !== undefined && expected.notCalled.length > 0) {
    scorers.push(neverCalled(expected.notCalled, { name: 'never-called' }));
  }
  if (expected.maxCalls !== undefined) scorers.push(maxToolCalls(expected.maxCalls));
  const budget = {
    ...(expected.maxTokens === undefined ? {} : { maxTokens: expected.maxTokens }),
    ...(expected.maxTurns === undefined ? {} : { maxTurns: expected.maxTurns }),
    ...(expected.maxDurationMs === undefined ? {} : { maxDurationMs: expected.maxDurationMs }),
  };
  if (Object.keys(budget).length > 0) scorers.push(withinBudget(budget));
  return scorers;
}
