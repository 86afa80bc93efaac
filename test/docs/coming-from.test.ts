import { invokeFunctionTool, RunContext } from '@openai/agents-core';
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';

import { Session, ToolInvoked } from 'affordance';
import { createTestRuntime } from 'affordance/testing';

import { deskPrompt, Orders } from '../../docs/snippets/coming-from/affordance-tool.js';
import { type DeskContext, orderStatus } from '../../docs/snippets/coming-from/agents-sdk-tool.js';
import { askDesk } from '../../docs/snippets/coming-from/ai-sdk-tool.js';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A model turn for the AI SDK's mock language model. */
function turn(
  content: LanguageModelV3GenerateResult['content'],
  finish: 'tool-calls' | 'stop',
): LanguageModelV3GenerateResult {
  return { content, finishReason: { unified: finish, raw: finish }, usage, warnings: [] };
}

/** The affordance side's tool loop over the same two model turns. */
async function askAffordance(orders: Map<string, string>, orderId: string) {
  const { evaluate, container } = createTestRuntime({
    configure: (c) => c.bind(Orders).toSelf().inSingletonScope(),
    script: [
      { toolCalls: [{ name: 'order_status', arguments: { orderId } }] },
      { text: 'Your order has shipped.' },
    ],
  });
  for (const [id, status] of orders) container.get(Orders).byId.set(id, status);
  const session = new Session();
  const result = await evaluate(deskPrompt, { session, input: `Where is ${orderId}?` });
  return { text: result.text, calls: session.slice(ToolInvoked).all() };
}

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

  it('should run the same tool loop as generateText with the Vercel AI SDK', async () => {
    const orders = new Map([['A-7', 'shipped']]);
    const model = new MockLanguageModelV3({
      doGenerate: [
        turn(
          [
            {
              type: 'tool-call',
              toolCallId: 'call-1',
              toolName: 'order_status',
              input: '{"orderId":"A-7"}',
            },
          ],
          'tool-calls',
        ),
        turn([{ type: 'text', text: 'Your order has shipped.' }], 'stop'),
      ],
    });
    const fromAiSdk = await askDesk(model, orders, 'Where is A-7?');
    const fromAffordance = await askAffordance(orders, 'A-7');

    // Both loops called the model twice and fed the tool's result back in between.
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(JSON.stringify(model.doGenerateCalls[1]?.prompt)).toContain('shipped');
    expect(fromAiSdk).toEqual({ text: 'Your order has shipped.', toolResults: ['shipped'] });
    expect(fromAffordance.text).toBe(fromAiSdk.text);
    expect(fromAffordance.calls.map((call) => call.renderedMessage)).toEqual(fromAiSdk.toolResults);
  });

  it('should answer an unknown order with the same message in both', async () => {
    const orders = new Map<string, string>();
    const model = new MockLanguageModelV3({
      doGenerate: [
        turn(
          [
            {
              type: 'tool-call',
              toolCallId: 'c',
              toolName: 'order_status',
              input: '{"orderId":"A-9"}',
            },
          ],
          'tool-calls',
        ),
        turn([{ type: 'text', text: 'Your order has shipped.' }], 'stop'),
      ],
    });
    const fromAiSdk = await askDesk(model, orders, 'Where is A-9?');
    const fromAffordance = await askAffordance(orders, 'A-9');
    expect(fromAiSdk.toolResults).toEqual(['No order A-9.']);
    expect(fromAffordance.calls.map((call) => call.renderedMessage)).toEqual(fromAiSdk.toolResults);
  });
});
