import type { AffordanceRuntime, PendingToolCall } from 'affordance';
import type { SessionPersistence } from 'affordance/durable';
import { refundPrompt } from './refund-desk.js';

/** What process A hands to whoever approves: plain JSON, safe to store or send. */
export interface ApprovalRequest {
  sessionId: string;
  state: string; // the signed evaluation state, as JSON text
  pending: { callId: string; tool: string; reason: string }[];
}

/** Process A: the customer's request. Returns the answer, or what waits for a person. */
export async function requestRefund(
  desk: { runtime: AffordanceRuntime; persistence: SessionPersistence },
  sessionId: string,
  input: string,
): Promise<{ answer: string | null } | ApprovalRequest> {
  const durable = await desk.persistence.open(sessionId);
  const response = await desk.runtime.evaluate(refundPrompt, { input, session: durable.session });
  await durable.commit(); // the session, with the version the state was signed against
  if (response.status === 'completed') return { answer: response.text };
  return {
    sessionId,
    state: JSON.stringify(response.interruption.state),
    pending: response.interruption.pending.map((call: PendingToolCall) => ({
      callId: call.callId,
      tool: call.name,
      reason: call.reason,
    })),
  };
}
