import type { EvaluationScope } from './scope/evaluation-scope.js';
import type { TokenUsage } from '../provider/token-usage.js';
import { ToolInvoked } from './events/tool-invoked.js';
import { cloneValue } from '../core/clone-value.js';
import type { ProviderNativeCall } from '../provider/conversation.js';
import { resultForSession, toolInvokedInit } from './events/event-fields.js';
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
  // The adapter may still hold the provider's objects; the session records a copy.
  const result = resultForSession(call.result);
  const message = result.toModelText();
  const event = new ToolInvoked(
    toolInvokedInit(scope, {
      name: call.name,
      callId: call.callId,
      rawArguments: cloneValue(call.arguments),
      result,
      renderedMessage: message,
      native: true,
      usage,
    }),
  );
  scope.session.dispatch(event);
  // The outcome's call is the call as sent (the provider's result is in `result` and the event).
  return {
    call: { callId: call.callId, name: call.name, arguments: call.arguments },
    result,
    message,
    event,
  };
}
