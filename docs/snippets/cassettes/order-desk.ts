import 'reflect-metadata';
import { IsString, Matches } from 'class-validator';
import { Container } from 'inversify';
import {
  installAffordance,
  Prompt,
  type ProviderAdapter,
  Section,
  Session,
  Tool,
  type ToolContext,
  ToolInvoked,
  ToolResult,
} from 'affordance';

export class StatusParams {
  @IsString() @Matches(/^A-\d+$/) orderId!: string;
}

/** The agent: one tool that reads an order's status. */
@Section({ key: 'orders', title: 'Orders', template: 'Answer questions about orders.' })
export class OrderSection {
  @Tool({ name: 'order_status', description: 'Status of an order.', readOnly: true })
  status(params: StatusParams, _context: ToolContext) {
    return ToolResult.ok({ orderId: params.orderId, status: 'shipped' }, 'Found it.');
  }
}

export const orderPrompt = new Prompt({ ns: 'docs', key: 'orders', sections: [OrderSection] });

/** Asks the order desk `question` through `adapter`: the answer and the tools it called. */
export async function askOrderDesk(adapter: ProviderAdapter, question: string, secret: string) {
  const runtime = installAffordance(new Container(), { stateSecret: secret });
  const session = new Session();
  const response = await runtime.evaluate(orderPrompt, { adapter, session, input: question });
  const calls = session.view
    .slice(ToolInvoked)
    .all()
    .map((event) => `${event.name} ${JSON.stringify(event.params)} → ${event.outcome}`);
  return { answer: response.text, calls };
}
