import { EvaluationStateError, ToolInvoked } from 'affordance';
import { InMemorySessionStore } from 'affordance/durable';
import { ScriptedAdapter, TEST_STATE_SECRET } from 'affordance/testing';

import { approveRefund } from '../../docs/snippets/policies-and-approvals/approve-refund.js';
import {
  createRefundDesk,
  refundsMade,
} from '../../docs/snippets/policies-and-approvals/refund-desk.js';
import {
  type ApprovalRequest,
  requestRefund,
} from '../../docs/snippets/policies-and-approvals/request-refund.js';
import { catchRejection } from '../support/catch-error.js';

/**
 * The approval walk of the Policies and approvals page: process A pauses at a
 * refund over $50 and commits the session; process B (its own container,
 * runtime and adapter; only the store and the JSON it is handed are shared)
 * loads the session and resumes once.
 */
const refundCall = {
  toolCalls: [
    { callId: 'call_1', name: 'refund_order', arguments: { orderId: 'A-1042', amountUsd: 120 } },
  ],
};

describe('docs: policies and approvals across two processes', () => {
  const store = new InMemorySessionStore();
  const secret = TEST_STATE_SECRET;
  let request: ApprovalRequest;

  it('should pause at the refund, run nothing and hand out a signed state', async () => {
    const processA = createRefundDesk({
      adapter: new ScriptedAdapter([refundCall]),
      store,
      stateSecret: secret,
    });
    const result = await requestRefund(processA, 'customer-42', 'Refund A-1042, $120.');
    if ('answer' in result)
      throw new Error(`expected a pause, got the answer ${String(result.answer)}`);
    request = JSON.parse(JSON.stringify(result)) as ApprovalRequest; // what crosses the wire
    expect(request.pending).toEqual([
      { callId: 'call_1', tool: 'refund_order', reason: expect.any(String) as string },
    ]);
    expect(refundsMade).toEqual([]);
  });

  it('should refuse the state in a process with another secret, running nothing', async () => {
    const stranger = createRefundDesk({
      adapter: new ScriptedAdapter([]),
      store,
      stateSecret: 'another secret, at least 16 chars',
    });
    await catchRejection(EvaluationStateError, () =>
      approveRefund(stranger, request, [{ callId: 'call_1', approved: true }]),
    );
    expect(refundsMade).toEqual([]);
  });

  it('should resume in process B from the stored session, run the refund once and commit', async () => {
    const processB = createRefundDesk({
      adapter: new ScriptedAdapter([{ text: 'Refunded $120 on A-1042.' }]),
      store,
      stateSecret: secret,
    });
    const done = await approveRefund(processB, request, [{ callId: 'call_1', approved: true }]);
    expect(done.status).toBe('completed');
    expect(done.text).toBe('Refunded $120 on A-1042.');
    expect(refundsMade).toEqual(['A-1042: $120']);

    const stored = await processB.persistence.open('customer-42');
    expect(
      stored.session
        .slice(ToolInvoked)
        .all()
        .map((call) => call.outcome),
    ).toEqual(['success']);

    const again = await catchRejection(EvaluationStateError, () =>
      approveRefund(processB, request, [{ callId: 'call_1', approved: true }]),
    );
    expect(again.problem).toContain('stale');
    expect(refundsMade).toEqual(['A-1042: $120']);
  });
});
