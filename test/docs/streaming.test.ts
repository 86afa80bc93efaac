import { Session } from 'affordance';
import { createTestRuntime } from 'affordance/testing';

import { printStream } from '../../docs/snippets/streaming/print-stream.js';
import { orderPrompt } from '../../docs/snippets/testing/order-agent.js';

describe('docs: streaming', () => {
  it('should write text as it streams, a line per tool call, and the turn count', async () => {
    const { runtime } = createTestRuntime({
      script: [
        { toolCalls: [{ name: 'order_status', arguments: { orderId: 'A-7' } }] },
        { text: 'Open Settings, then Reset.' },
      ],
    });
    const writes: string[] = [];
    await printStream(runtime, orderPrompt, new Session(), (text) => writes.push(text));
    expect(writes.join('')).toBe(
      '[order_status: success]\nOpen Settings, then Reset.\n(2 turns)\n',
    );
    expect(writes.length).toBeGreaterThan(3); // the text came in pieces
  });
});
