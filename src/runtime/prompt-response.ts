import type { TokenUsage } from '../provider/token-usage.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';

/** What an evaluation returns. */
export interface PromptResponse<O = unknown> {
  /** The prompt's name. */
  readonly promptName: string;
  /** Id of the evaluation (shared by its events). */
  readonly evaluationId: string;
  /** The final answer's text; `null` when a structured output was parsed from it or there was none. */
  readonly text: string | null;
  /** The parsed structured output (an array for `output: [Class]`), or `null` for a free-text prompt. */
  readonly output: O | O[] | null;
  /** Every tool call of the evaluation, in order. */
  readonly toolCalls: readonly ToolCallOutcome[];
  /** How many provider requests were made. */
  readonly turns: number;
  /** Token usage of the evaluation, if the provider reported it. */
  readonly usage: TokenUsage | undefined;
}
