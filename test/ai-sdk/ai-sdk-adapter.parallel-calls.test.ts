import type { AiSdkAdapterOptions } from 'affordance/ai-sdk';

import { type AiSdkHarness, startAiSdk } from '../support/ai-sdk-harness.js';
import {
  geminiWire,
  groqWire,
  mistralWire,
  openAICompatibleWire,
  type Wire,
} from '../support/ai-sdk-wires.js';
import { providerRequest } from '../support/openai-streams.js';
import { orderDesk } from '../support/order-desk.js';

const harnesses: AiSdkHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) {
    await harness.server.close();
    expect(harness.server.problems()).toEqual([]);
  }
});

/** The body the provider package sent for one request with the order desk's tools. */
async function bodyOf(
  wire: Wire,
  options: Partial<AiSdkAdapterOptions>,
): Promise<Record<string, unknown>> {
  const harness = await startAiSdk(wire, options);
  harnesses.push(harness);
  harness.server.reply({ json: wire.whole({ text: 'ok' }) });
  await harness.adapter.request(providerRequest(harness.adapter, orderDesk([])));
  return harness.server.requests[0]!.body;
}

describe('AiSdkAdapter parallelToolCalls', () => {
  it.each([mistralWire, groqWire].map((wire) => [wire.name, wire] as const))(
    'should send parallel_tool_calls: false to %s when parallelToolCalls is false',
    async (_name, wire) => {
      const serial = await bodyOf(wire, { parallelToolCalls: false });
      const open = await bodyOf(wire, {});

      expect(serial['parallel_tool_calls']).toBe(false);
      expect(open['parallel_tool_calls']).not.toBe(false);
    },
  );

  it("should let the options' own provider option win", async () => {
    const body = await bodyOf(mistralWire, {
      parallelToolCalls: false,
      providerOptions: { mistral: { parallelToolCalls: true, safePrompt: true } },
    });

    expect([body['parallel_tool_calls'], body['safe_prompt']]).toEqual([true, true]);
  });

  it('should leave providers without a switch as they are, and pass an OpenAI-compatible one through', async () => {
    const gemini = await bodyOf(geminiWire, { parallelToolCalls: false });
    const compatible = await bodyOf(openAICompatibleWire, {
      parallelToolCalls: false,
      providerOptions: { ollama: { parallel_tool_calls: false } },
    });

    expect(JSON.stringify(gemini)).not.toContain('arallel');
    expect(compatible['parallel_tool_calls']).toBe(false);
  });
});
