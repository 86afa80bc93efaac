import type { ConversationMessage, ProviderToolCall } from '../../provider/conversation.js';
import { ToolResult } from '../../tools/tool-result.js';
import { toolInvokedInit } from '../events/event-fields.js';
import { ToolInvoked } from '../events/tool-invoked.js';
import type { EvaluationScope } from '../scope/evaluation-scope.js';
import type { EvaluationRecovery } from './resume-request.js';

/** The message a started call with no record leaves for the model. */
export const INTERRUPTED_CALL_MESSAGE =
  'This call was interrupted: the process running it stopped before the call finished, so it may or ' +
  'may not have taken effect. Check whether it did before calling it again.';

/** What recovering the calls of a checkpoint's turn leaves to run. @internal */
export interface RecoveredCalls {
  /** Tool messages for the calls that ended before the process died, in call order. */
  readonly messages: readonly ConversationMessage[];
  /** The calls that never started, in call order. */
  readonly remaining: readonly ProviderToolCall[];
}

/**
 * Sorts the turn's `calls` after a process died: a call the session recorded
 * is not run again (its recorded message goes back to the model); a call that
 * had started without a record is recorded now with outcome `unknown`; the
 * others are left to run. @internal
 */
export function recoverCalls(
  scope: EvaluationScope,
  calls: readonly ProviderToolCall[],
  recovery: EvaluationRecovery,
): RecoveredCalls {
  const recorded = new Map<string, ToolInvoked>();
  for (const event of scope.session.view.slice(ToolInvoked).all()) {
    if (event.evaluationId === scope.evaluationId && event.callId !== undefined) {
      recorded.set(event.callId, event);
    }
  }
  const started = new Set(recovery.startedCalls);
  const messages: ConversationMessage[] = [];
  const remaining: ProviderToolCall[] = [];
  for (const call of calls) {
    let event = recorded.get(call.callId);
    if (event === undefined && started.has(call.callId)) event = recordInterrupted(scope, call);
    if (event === undefined) {
      remaining.push(call);
      continue;
    }
    messages.push({
      role: 'tool',
      callId: call.callId,
      name: call.name,
      content: event.renderedMessage,
      result: event.result,
    });
  }
  return { messages, remaining };
}

function recordInterrupted(scope: EvaluationScope, call: ProviderToolCall): ToolInvoked {
  const result = new ToolResult({ message: INTERRUPTED_CALL_MESSAGE, success: false });
  const event = new ToolInvoked(
    toolInvokedInit(scope, {
      name: call.name,
      callId: call.callId,
      params: undefined,
      rawArguments: call.arguments,
      result,
      renderedMessage: INTERRUPTED_CALL_MESSAGE,
      native: false,
      outcome: 'unknown',
      durationMs: undefined,
      usage: undefined,
    }),
  );
  scope.session.dispatch(event);
  return event;
}
