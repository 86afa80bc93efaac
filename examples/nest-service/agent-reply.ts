import type { CompletedResponse, PendingToolCall, ToolCallOutcome } from 'affordance';

import type { AgentAnswer, PendingApproval, ToolCallSummary } from './agent-answer.js';
import type { Refund } from './refund-desk.js';
import type { SupportReply } from './support-prompt.js';
import type { Ticket } from './ticket-desk.js';

/** The 200 body for a finished evaluation of the support prompt; `started` is when the HTTP request began. */
export function agentAnswerOf(
  response: CompletedResponse<SupportReply>,
  started: number,
): AgentAnswer {
  return {
    status: 'answered',
    reply: response.output as SupportReply,
    toolCalls: response.toolCalls.map(summaryOf),
    tickets: valuesOf<Ticket>(response.toolCalls, 'open_ticket'),
    refunds: valuesOf<Refund>(response.toolCalls, 'refund_order'),
    turns: response.turns,
    usage: {
      inputTokens: response.usage?.inputTokens ?? 0,
      outputTokens: response.usage?.outputTokens ?? 0,
    },
    durationMs: Math.round(performance.now() - started),
  };
}

/** The 202 body for an evaluation paused under `stateId`. */
export function pendingApprovalOf(
  stateId: string,
  pending: readonly PendingToolCall[],
): PendingApproval {
  return {
    status: 'pending',
    stateId,
    pending: pending.map((call) => ({
      callId: call.callId,
      tool: call.name,
      params: call.params,
      reason: call.reason,
    })),
  };
}

function summaryOf({ call, event, result }: ToolCallOutcome): ToolCallSummary {
  return {
    tool: call.name,
    arguments:
      typeof event.rawArguments === 'string'
        ? event.rawArguments
        : JSON.stringify(event.rawArguments),
    outcome: event.outcome === 'denied' ? 'denied' : result.success ? 'success' : 'failure',
    message: result.message,
  };
}

/** The values of the successful calls of `tool`. */
function valuesOf<T>(calls: readonly ToolCallOutcome[], tool: string): T[] {
  return calls
    .filter(({ call, result }) => call.name === tool && result.success)
    .map(({ result }) => result.value as T);
}
