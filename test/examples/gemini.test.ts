import { Session, ToolInvoked } from 'affordance';

import { run } from '../../examples/gemini/main.js';
import { DeskAnswer } from '../../examples/openai-agent/main.js';
import { OrderBook } from '../../examples/openai-agent/order-book.js';
import { recordedAnswers } from '../../examples/gemini/recording.js';

describe('examples/gemini', () => {
  it('should run offline against the recorded Gemini server when GOOGLE_GENERATIVE_AI_API_KEY is not set', async () => {
    const lines: string[] = [];
    const { response, session, container, requests } = await run((line) => lines.push(line), {});
    const output = lines.join('\n');

    expect(output).toContain(
      'Order desk on google.generative-ai gemini-2.5-flash (recorded server; set GOOGLE_GENERATIVE_AI_API_KEY for the real API)',
    );
    expect(output).toContain('tool lookup_order({"orderId":"A-1001"}) → success');
    expect(output).toContain(
      'Done in 3 turns, 2 tool calls, 1493 input + 142 output tokens (256 cached).',
    );
    expect(response.output).toEqual(
      Object.assign(new DeskAnswer(), {
        orderId: 'A-1001',
        refunded: true,
        reply: 'Sorry about that! Order A-1001 has been refunded (42.50 EUR).',
      }),
    );
    expect(session).toBeInstanceOf(Session);
    expect(
      session
        .slice(ToolInvoked)
        .all()
        .map((event) => [event.name, event.outcome]),
    ).toEqual([
      ['lookup_order', 'success'],
      ['refund_order', 'success'],
    ]);
    expect(container.get(OrderBook).find('A-1001')?.refunded).toBe(true);
    // Every recorded answer was asked for, and the last request carried both results back.
    expect(requests).toHaveLength(recordedAnswers.length);
    const last = JSON.stringify(requests.at(-1));
    expect(last).toContain('"functionResponse":{"id":"fc-1","name":"lookup_order"');
    expect(last).toContain('"functionResponse":{"id":"fc-2","name":"refund_order"');
    expect(last).toContain('"thoughtSignature":"c2lnLTI="');
  });
});
