import { DeskAnswer, run } from '../../examples/openai-agent/main.js';
import { OrderBook } from '../../examples/openai-agent/order-book.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import { functionCall, message, responseBody } from '../support/openai-payloads.js';
import { OpenAITestServer } from '../support/openai-test-server.js';

describe('examples/openai-agent', () => {
  it('should run offline on the scripted model when OPENAI_API_KEY is not set', async () => {
    const lines: string[] = [];
    const { response, session, container } = await run((line) => lines.push(line), {});
    const output = lines.join('\n');

    expect(output).toContain(
      'Order desk on scripted model (set OPENAI_API_KEY or ANTHROPIC_API_KEY for a real API)',
    );
    expect(output).toContain('tool lookup_order({"orderId":"A1001"}) → failure');
    expect(output).toContain('Tool validation failed: orderId');
    expect(output).toContain('Order A-1001 is delivered, total 42.50 EUR. A refund was issued.');
    expect(output).toContain('Done in 4 turns, 3 tool calls, 1965 input + 118 output tokens');

    expect(response.output).toEqual(
      Object.assign(new DeskAnswer(), {
        orderId: 'A-1001',
        refunded: true,
        reply: 'Sorry about that! Order A-1001 has been refunded (42.50 EUR).',
      }),
    );
    expect(
      session
        .slice(ToolInvoked)
        .all()
        .map((event) => [event.name, event.outcome]),
    ).toEqual([
      ['lookup_order', 'failure'],
      ['lookup_order', 'success'],
      ['refund_order', 'success'],
    ]);
    expect(container.get(OrderBook).find('A-1001')?.refunded).toBe(true);
  });

  it('should talk to any OpenAI-compatible server when OPENAI_API_KEY and OPENAI_BASE_URL are set', async () => {
    const server = await OpenAITestServer.start();
    server.reply(
      { json: responseBody([functionCall('lookup_order', { orderId: 'A-1002' })]) },
      {
        json: responseBody([
          message('{"orderId":"A-1002","refunded":false,"reply":"It ships soon."}'),
        ]),
      },
    );
    try {
      const lines: string[] = [];
      const { response } = await run((line) => lines.push(line), {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: server.baseURL,
        OPENAI_MODEL: 'gpt-test',
      });

      expect(lines[0]).toBe(`Order desk on OpenAI gpt-test at ${server.baseURL}`);
      expect(response.output).toMatchObject({ orderId: 'A-1002', refunded: false });
      expect(server.requests.map((request) => request.body['model'])).toEqual([
        'gpt-test',
        'gpt-test',
      ]);
      expect(server.problems()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
