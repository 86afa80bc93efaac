import { Session, ToolInvoked } from 'affordance';
import { createTestRuntime } from 'affordance/testing';
import { orderPrompt } from './order-agent.js';

describe('order agent', () => {
  it('reads the status with the tool before answering', async () => {
    const agent = createTestRuntime({
      script: [
        { toolCalls: [{ name: 'order_status', arguments: { orderId: 'A-7' } }] },
        {
          // checks what the model was sent on this turn: the tool's result
          expect: (request) => {
            if (!JSON.stringify(request.messages.at(-1)).includes('shipped')) {
              throw new Error('the tool result was not sent back');
            }
          },
          text: 'Order A-7 has shipped.',
        },
      ],
    });
    const session = new Session();
    const response = await agent.evaluate(orderPrompt, { session, input: 'Where is A-7?' });

    expect(response.text).toBe('Order A-7 has shipped.');
    expect(
      session
        .slice(ToolInvoked)
        .all()
        .map((call) => call.outcome),
    ).toEqual(['success']);
    expect(agent.adapter.requests).toHaveLength(2); // what the model was sent, turn by turn
  });
});
