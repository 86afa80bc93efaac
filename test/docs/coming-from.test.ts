import { invokeFunctionTool, RunContext } from '@openai/agents-core';

import { Session, ToolInvoked } from 'affordance';
import { createTestRuntime } from 'affordance/testing';

import { deskPrompt, Orders } from '../../docs/snippets/coming-from/affordance-tool.js';
import { type DeskContext, orderStatus } from '../../docs/snippets/coming-from/agents-sdk-tool.js';

/** The side-by-side tools of the "Coming from" page answer the same call the same way. */
describe('docs: coming from the OpenAI Agents SDK', () => {
  it('should answer the same arguments with the same status in both', async () => {
    const orders = new Map([['A-7', 'shipped']]);
    const fromAgents = await invokeFunctionTool({
      tool: orderStatus,
      runContext: new RunContext<DeskContext>({ orders }),
      input: '{"orderId":"A-7"}',
    });

    const { evaluate, container } = createTestRuntime({
      configure: (c) => c.bind(Orders).toSelf().inSingletonScope(),
      script: [
        { toolCalls: [{ name: 'order_status', arguments: { orderId: 'A-7' } }] },
        { text: 'done' },
      ],
    });
    container.get(Orders).byId.set('A-7', 'shipped');
    const session = new Session();
    await evaluate(deskPrompt, { session });
    const [call] = session.slice(ToolInvoked).all();

    expect(fromAgents).toBe('shipped');
    expect(call?.outcome).toBe('success');
    expect(call?.renderedMessage).toBe('shipped');
  });
});
