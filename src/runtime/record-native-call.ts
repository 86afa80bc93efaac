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
      nativeType: nativeTypeOf(scope, call.name),
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

/** The provider's type of the native tool called `name`: its `NativeTool`'s, or the name as reported. */
function nativeTypeOf(scope: EvaluationScope, name: string): string {
  const tool = scope.rendered.tool(name);
  const type = tool?.native === true ? (tool as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type : name;
}
