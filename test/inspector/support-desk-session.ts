import 'reflect-metadata';
import { IsInt, IsString, Min } from 'class-validator';
import {
  type ApprovalDecision,
  MarkdownSection,
  PolicyDecision,
  Prompt,
  Session,
  ToolDefinition,
  ToolResult,
  type PendingToolCall,
} from 'affordance';
import { createTestRuntime } from 'affordance/testing';

class OrderParams {
  @IsString() orderId!: string;
}

class RefundParams {
  @IsString() orderId!: string;
  @IsInt() @Min(1) amountUsd!: number;
}

/** A STATE slice the failing tool writes to before it throws (so its rollback shows). */
export class OrderCancelled {
  constructor(readonly orderId: string) {}
}

const lookup = new ToolDefinition({
  name: 'lookup_order',
  description: 'Look up an order.',
  params: OrderParams,
  readOnly: true,
  handler: (params) => ToolResult.ok({ orderId: params.orderId, status: 'shipped' }, 'Found it.'),
});

const cancel = new ToolDefinition({
  name: 'cancel_order',
  description: 'Cancel an order.',
  params: OrderParams,
  handler: (params, context) => {
    context.session.dispatch(new OrderCancelled(params.orderId));
    throw new Error(`the warehouse already shipped ${params.orderId}`);
  },
});

const closeAccount = new ToolDefinition({
  name: 'close_account',
  description: 'Close the account.',
  params: OrderParams,
  policies: [
    {
      name: 'no_closures',
      check: () => PolicyDecision.deny('Accounts are closed by the back office.', 'Ask a person.'),
    },
  ],
  handler: () => ToolResult.ok(null, 'Closed.'),
});

const refund = new ToolDefinition({
  name: 'refund_order',
  description: 'Refund an order.',
  params: RefundParams,
  approval: true,
  handler: (params) => ToolResult.ok(null, `Refunded $${params.amountUsd} on ${params.orderId}.`),
});

export const deskPrompt = new Prompt({
  ns: 'tests',
  key: 'desk',
  sections: [
    new MarkdownSection({
      key: 'desk',
      title: 'Support desk',
      template: 'Help the customer with their orders.',
      tools: [lookup, cancel, closeAccount, refund],
    }),
  ],
});

/** What {@link runSupportDesk} leaves: the session and the approval pause, as an export needs them. */
export interface SupportDeskRun {
  readonly session: Session;
  readonly pending: readonly PendingToolCall[];
  readonly decisions: readonly ApprovalDecision[];
  readonly answer: string | null;
}

/**
 * A real evaluation with the ScriptedAdapter: a lookup, a tool that fails
 * after writing state (rolled back), a call a policy denies, and two refunds
 * that wait for approval: one approved, one rejected on resume.
 */
export async function runSupportDesk(
  answer = 'Refunded $80 on A-1; the other refund was declined.',
  session: Session = new Session({ tags: { customer: 'c-42' } }),
): Promise<SupportDeskRun> {
  const { runtime, adapter } = createTestRuntime({
    script: [
      {
        toolCalls: [{ callId: 'c1', name: 'lookup_order', arguments: { orderId: 'A-1' } }],
        usage: { inputTokens: 100, outputTokens: 10 },
      },
      {
        toolCalls: [{ callId: 'c2', name: 'cancel_order', arguments: { orderId: 'A-1' } }],
        usage: { inputTokens: 150, outputTokens: 12 },
      },
      {
        toolCalls: [{ callId: 'c3', name: 'close_account', arguments: { orderId: 'A-1' } }],
        usage: { inputTokens: 180, outputTokens: 9 },
      },
      {
        toolCalls: [
          { callId: 'r1', name: 'refund_order', arguments: { orderId: 'A-1', amountUsd: 80 } },
          { callId: 'r2', name: 'refund_order', arguments: { orderId: 'A-2', amountUsd: 900 } },
        ],
        usage: { inputTokens: 200, outputTokens: 20 },
      },
      { text: answer, usage: { inputTokens: 260, outputTokens: 30 } },
    ],
  });
  const paused = await runtime.evaluate(deskPrompt, {
    session,
    adapter,
    input: 'Cancel A-1 and refund.',
  });
  if (paused.status !== 'interrupted')
    throw new Error('expected the evaluation to pause for approval');
  const decisions: ApprovalDecision[] = [
    { callId: 'r1', approved: true },
    { callId: 'r2', approved: false, message: 'Refunds over $500 need a manager.' },
  ];
  const done = await runtime.resume(deskPrompt, paused.interruption.state, decisions, {
    session,
    adapter,
  });
  adapter.assertDone();
  return { session, pending: paused.interruption.pending, decisions, answer: done.text };
}
