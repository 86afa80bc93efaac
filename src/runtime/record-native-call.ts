import type { EvaluationScope } from '../container/evaluation-scope.js';
import type { TokenUsage } from '../events/token-usage.js';
import { ToolInvoked } from '../events/tool-invoked.js';
import { ToolResult } from '../tools/tool-result.js';
import { cloneValue } from './clone-value.js';
import type { ProviderNativeCall } from './conversation.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';

/**
 * Records one provider-executed call as a `ToolInvoked` flagged `native`, so
 * the session keeps the same audit trail as for local tools. Nothing runs and
 * nothing is rolled back: the provider already did the work.
 */
export function recordNativeCall(
  scope: EvaluationScope,
  call: ProviderNativeCall,
  usage: TokenUsage | undefined,
): ToolCallOutcome {
  // The session freezes what it records; the adapter may still hold the provider's objects.
  const result = call.result.value === null ? call.result : cloneResult(call.result);
  const message = result.toModelText();
  const event = new ToolInvoked({
    promptName: scope.prompt.name,
    promptNs: scope.prompt.ns,
    promptKey: scope.prompt.key,
    adapter: scope.adapter.name,
    sessionId: scope.session.sessionId,
    evaluationId: scope.evaluationId,
    name: call.name,
    callId: call.callId,
    rawArguments: cloneValue(call.arguments),
    result,
    renderedMessage: message,
    native: true,
    usage,
  });
  scope.session.dispatch(event);
  return { call, result, message, event };
}

function cloneResult(result: ToolResult): ToolResult {
  return new ToolResult({
    message: result.message,
    value: cloneValue(result.value),
    success: result.success,
    excludeValueFromContext: result.excludeValueFromContext,
  });
}
