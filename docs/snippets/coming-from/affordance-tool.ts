import 'reflect-metadata';
import { IsString, Matches } from 'class-validator';
import { inject, injectable } from 'inversify';
import { Prompt, Section, Tool, type ToolContext, ToolResult } from 'affordance';

// affordance: the params are a class, the tool a method, its dependencies injected.
export class StatusParams {
  @IsString() @Matches(/^A-\d+$/) orderId!: string;
}

@injectable()
export class Orders {
  readonly byId = new Map<string, string>();
}

@Section({ key: 'desk', title: 'Desk', template: 'Answer questions about orders.' })
export class DeskSection {
  constructor(@inject(Orders) private readonly orders: Orders) {}

  @Tool({ name: 'order_status', description: 'Status of an order.', readOnly: true })
  orderStatus(params: StatusParams, _context: ToolContext) {
    const status = this.orders.byId.get(params.orderId);
    return status === undefined
      ? ToolResult.error(`No order ${params.orderId}.`)
      : ToolResult.ok(null, status);
  }
}

// An agent is a prompt: its sections carry the instructions and the tools.
export const deskPrompt = new Prompt({ ns: 'docs', key: 'desk', sections: [DeskSection] });
