import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { inject } from 'inversify';

import { Describe, Section, Tool, type ToolContext, ToolResult } from 'affordance';

import { Order, OrderBook } from './order-book.js';

/** Arguments of `lookup_order`. */
export class LookupOrderParams {
  @Describe('The order id, e.g. A-1001')
  @IsString()
  @Matches(/^A-\d{4}$/)
  orderId!: string;
}

/** Arguments of `refund_order`. */
export class RefundOrderParams {
  @Describe('The order id, e.g. A-1001')
  @IsString()
  @Matches(/^A-\d{4}$/)
  orderId!: string;

  @Describe('Why the customer wants a refund, in their words')
  @IsOptional()
  @IsString()
  @MaxLength(200)
  reason?: string;
}

/** Instructions plus the order tools, in one class. */
@Section({
  key: 'order-desk',
  title: 'Order desk',
  template:
    'You answer customers about their orders. Always look an order up before talking about it, ' +
    'and refund only delivered orders the customer asks to refund.',
})
export class OrderDeskSection {
  constructor(@inject(OrderBook) private readonly orders: OrderBook) {}

  @Tool({
    name: 'lookup_order',
    description: 'Look an order up by id.',
    result: Order,
    readOnly: true,
  })
  lookup(params: LookupOrderParams, _context: ToolContext): ToolResult<Order> {
    const order = this.orders.find(params.orderId);
    if (order === undefined) return ToolResult.error(`No order '${params.orderId}'. Check the id.`);
    return ToolResult.ok(order, `Found order ${order.orderId}.`);
  }

  @Tool({ name: 'refund_order', description: 'Refund a delivered order.', result: Order })
  refund(params: RefundOrderParams, _context: ToolContext): ToolResult<Order> {
    const outcome = this.orders.refund(params.orderId);
    if (typeof outcome === 'string') return ToolResult.error(outcome);
    return ToolResult.ok(outcome, `Refunded order ${outcome.orderId}.`);
  }
}
