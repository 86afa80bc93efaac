import { IsNumber, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';

import { Describe, Section, Tool, type ToolContext, ToolResult } from 'affordance';

import { Refund, RefundDesk } from './refund-desk.js';

/** Refunds above this many dollars wait for a person's approval; smaller ones run at once. */
export const REFUND_APPROVAL_LIMIT = 50;

/** Arguments of `refund_order`. */
export class RefundOrderParams {
  @Describe('The order to refund, e.g. "A-1042"')
  @Matches(/^[A-Z]-\d{3,6}$/)
  orderId!: string;

  @Describe('How many dollars to refund')
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(0.01)
  @Max(10_000)
  amount!: number;

  @Describe('Why the customer asks for it, in one sentence')
  @IsString()
  @MinLength(3)
  @MaxLength(300)
  reason!: string;
}

/**
 * Refunds: the one tool here changes money, so refunds above
 * {@link REFUND_APPROVAL_LIMIT} dollars wait for a person (`approval`): the
 * evaluation pauses, `POST /agent` answers 202 with the pending call, and
 * the call runs only once someone approves it. A singleton: it injects the
 * refund desk only, so a call resumed in the approver's request needs
 * nothing from the customer's.
 */
@Section({
  key: 'refunds',
  title: 'Refunds',
  template: [
    'When a customer asks to refund an order and names it and the amount, call refund_order.',
    `Refunds above $${REFUND_APPROVAL_LIMIT} wait for a person's approval before they run.`,
    'When a person rejects a refund, tell the customer it was not issued and why.',
  ].join('\n'),
})
export class RefundSection {
  constructor(private readonly refunds: RefundDesk) {}

  @Tool({
    name: 'refund_order',
    description: `Refund an order. Refunds above $${REFUND_APPROVAL_LIMIT} wait for a person's approval.`,
    result: Refund,
    approval: (params: RefundOrderParams) => params.amount > REFUND_APPROVAL_LIMIT,
  })
  refund(params: RefundOrderParams, _context: ToolContext): ToolResult<Refund> {
    const refund = this.refunds.issue(params.orderId, params.amount, params.reason);
    return ToolResult.ok(
      refund,
      `Refunded $${refund.amount.toFixed(2)} on order ${refund.orderId} (refund ${refund.id}).`,
    );
  }
}
