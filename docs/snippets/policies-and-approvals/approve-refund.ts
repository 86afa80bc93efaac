import type { AffordanceRuntime, ApprovalDecision, EvaluationState } from 'affordance';
import type { SessionPersistence } from 'affordance/durable';
import { refundPrompt } from './refund-desk.js';
import type { ApprovalRequest } from './request-refund.js';

/** Process B, later: a person decided. Loads the session, resumes, commits. */
export async function approveRefund(
  desk: { runtime: AffordanceRuntime; persistence: SessionPersistence },
  request: ApprovalRequest,
  decisions: ApprovalDecision[],
) {
  const durable = await desk.persistence.open(request.sessionId);
  const state = JSON.parse(request.state) as EvaluationState;
  const response = await desk.runtime.resume(refundPrompt, state, decisions, {
    session: durable.session,
  });
  await durable.commit();
  return response;
}
