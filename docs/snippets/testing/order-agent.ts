import 'reflect-metadata';
import { IsString, Matches } from 'class-validator';
import { Prompt, Section, Tool, type ToolContext, ToolResult } from 'affordance';

export class StatusParams {
  @IsString() @Matches(/^A-\d+$/) orderId!: string;
}

/** The agent under test: one tool that reads an order's status. */
@Section({ key: 'orders', title: 'Orders', template: 'Answer questions about orders.' })
export class OrderSection {
  @Tool({ name: 'order_status', description: 'Status of an order.', readOnly: true })
  status(params: StatusParams, _context: ToolContext) {
    return ToolResult.ok({ orderId: params.orderId, status: 'shipped' }, 'Found it.');
  }
}

export const orderPrompt = new Prompt({ ns: 'docs', key: 'orders', sections: [OrderSection] });
