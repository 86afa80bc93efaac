import type { ProviderTurn } from '../provider/conversation.js';
import type { TokenUsage } from '../provider/token-usage.js';
import type { EvaluationRunInit } from './evaluation-run-init.js';
import { checkBudget } from './evaluation-stops.js';
import { recordNativeCall } from './record-native-call.js';
import { servedBy } from './record-prompt-executed.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';

/**
 * Takes turn `turn`'s answer into an evaluation: adds its usage to `usage`
 * (the total so far), records the calls the provider ran itself into
 * `toolCalls`, checks the budget and, when streaming, sends the turn's
 * `usage` and `turn-end` parts naming who served it. Returns the new total.
 * @internal
 */
export function takeAnswer(
  init: EvaluationRunInit,
  answer: ProviderTurn,
  turn: number,
  usage: TokenUsage | undefined,
  toolCalls: ToolCallOutcome[],
): TokenUsage | undefined {
  const { scope, observer, sink } = init;
  const served = sink === undefined ? undefined : servedBy(answer, scope.adapter);
  let total = usage;
  if (answer.usage !== undefined) {
    total = total === undefined ? answer.usage : total.plus(answer.usage);
    if (served !== undefined) {
      const { provider, model } = served;
      sink?.sendNow({ type: 'usage', turn, usage: answer.usage, total, provider, model });
    }
  }
  for (const native of answer.nativeCalls ?? []) {
    const outcome = recordNativeCall(scope, native, total);
    toolCalls.push(outcome);
    observer?.nativeCall(outcome.event);
    sink?.sendNow({ type: 'native-call', turn, event: outcome.event });
  }
  checkBudget(scope, total);
  if (served !== undefined) {
    const { provider, model } = served;
    const finishReason = answer.finishReason;
    const calls = answer.toolCalls?.length ?? 0;
    sink?.sendNow({ type: 'turn-end', turn, finishReason, toolCalls: calls, provider, model });
  }
  return total;
}
