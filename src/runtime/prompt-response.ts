import type { TokenUsage } from '../provider/token-usage.js';
import type { EvaluationInterruption } from './approval/evaluation-interruption.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';

/** What every evaluation's response has, finished or paused. */
export interface PromptResponseFields<O = unknown> {
  /** The prompt's name. */
  readonly promptName: string;
  /** Id of the evaluation (shared by its events, kept across a pause). */
  readonly evaluationId: string;
  /** The final answer's text; `null` when a structured output was parsed from it, there was none, or the evaluation paused. */
  readonly text: string | null;
  /** The parsed structured output (an array for `output: [Class]`), or `null` for a free-text prompt or a paused evaluation. */
  readonly output: O | O[] | null;
  /** Every tool call of the evaluation so far, in order (across pauses). */
  readonly toolCalls: readonly ToolCallOutcome[];
  /** How many provider requests were made (across pauses). */
  readonly turns: number;
  /** Token usage of the evaluation, if the provider reported it. */
  readonly usage: TokenUsage | undefined;
}

/** An evaluation that ran to its answer. */
export interface CompletedResponse<O = unknown> extends PromptResponseFields<O> {
  /** The evaluation finished. */
  readonly status: 'completed';
  /** Always `undefined` for a finished evaluation. */
  readonly interruption: undefined;
}

/**
 * An evaluation that paused because calls need a person's approval: show
 * `interruption.pending` to the approver, keep `interruption.state`, and
 * continue with `runtime.resume(prompt, state, decisions, { session })`.
 */
export interface InterruptedResponse extends PromptResponseFields<never> {
  /** The evaluation paused. */
  readonly status: 'interrupted';
  /** Always `null`: there is no answer yet. */
  readonly text: null;
  /** Always `null`: there is no answer yet. */
  readonly output: null;
  /** The calls waiting for approval and the state to resume from. */
  readonly interruption: EvaluationInterruption;
}

/**
 * What an evaluation returns: `status: 'completed'` with the answer, or
 * `status: 'interrupted'` when it paused for approval (only prompts with
 * approval rules or policies that ask for approval pause).
 */
export type PromptResponse<O = unknown> = CompletedResponse<O> | InterruptedResponse;
