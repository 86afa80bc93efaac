import { IsIn, IsString, Matches } from 'class-validator';
import { Container } from 'inversify';

import {
  type AffordanceRuntime,
  Describe,
  installAffordance,
  MarkdownSection,
  Prompt,
  ToolDefinition,
  ToolResult,
} from 'affordance';

/** Arguments of lookup_order. */
export class LookupOrder {
  @Describe('The order id, e.g. A-17') @IsString() @Matches(/^A-\d+$/) orderId!: string;
}

/** Arguments of refund_order. */
export class RefundOrder {
  @Describe('The order id') @IsString() @Matches(/^A-\d+$/) orderId!: string;
  @Describe('late or damaged') @IsIn(['late', 'damaged']) reason!: string;
}

/** The agent's answer. */
export class RefundAnswer {
  @Describe('refunded or declined') @IsIn(['refunded', 'declined']) decision!: string;
  @Describe('The reply to the customer') @IsString() reply!: string;
}

/** The agent under test: looks orders up and refunds late ones. */
export const refundPrompt = new Prompt({
  ns: 'docs/evals',
  key: 'refunds',
  sections: [
    new MarkdownSection({
      key: 'refunds',
      title: 'Refunds',
      template: 'Look the order up first. Refund late or damaged orders only.',
      tools: [
        new ToolDefinition({
          name: 'lookup_order',
          description: 'Look an order up.',
          params: LookupOrder,
          handler: (params: LookupOrder) =>
            ToolResult.ok(params.orderId, `Order ${params.orderId} arrived 5 days late.`),
        }),
        new ToolDefinition({
          name: 'refund_order',
          description: 'Refund an order.',
          params: RefundOrder,
          handler: (params: RefundOrder) => ToolResult.ok(params.orderId, 'Refunded.'),
        }),
      ],
    }),
  ],
  output: RefundAnswer,
});

/** The application's runtime (its container would bind the real services). */
export function createRuntime(): AffordanceRuntime {
  return installAffordance(new Container());
}
