import type { TokenUsage } from '../provider/token-usage.js';
import type { EvaluationState } from './approval/evaluation-state.js';
import type { PendingToolCall } from './approval/pending-tool-call.js';
import type { CompletedResponse, InterruptedResponse } from './prompt-response.js';
import type { EvaluationScope } from './scope/evaluation-scope.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';

/** What every response of an evaluation reports, whichever way it ended. */
interface ResponseFields {
  readonly scope: EvaluationScope;
  readonly toolCalls: readonly ToolCallOutcome[];
  /** The turn it ended in (counted from 0). */
  readonly turn: number;
  readonly usage: TokenUsage | undefined;
}

/** The response of an evaluation that answered with `text` (and `output`, parsed from it). @internal */
export function completedResponse<O>(
  fields: ResponseFields,
  answer: { readonly text: string | null; readonly output: unknown },
): CompletedResponse<O> {
  return {
    status: 'completed',
    interruption: undefined,
    promptName: fields.scope.prompt.name,
    evaluationId: fields.scope.evaluationId,
    text: answer.text,
    output: answer.output as O | O[] | null,
    toolCalls: fields.toolCalls,
    turns: fields.turn + 1,
    usage: fields.usage,
  };
}

/** The response of an evaluation paused at `pending`, with the state to resume from. @internal */
export function interruptedResponse(
  fields: ResponseFields,
  pending: readonly PendingToolCall[],
  state: EvaluationState,
): InterruptedResponse {
  return {
    status: 'interrupted',
    promptName: fields.scope.prompt.name,
    evaluationId: fields.scope.evaluationId,
    text: null,
    output: null,
    toolCalls: fields.toolCalls,
    turns: fields.turn + 1,
    usage: fields.usage,
    interruption: { pending, state, session: fields.scope.session },
  };
}
