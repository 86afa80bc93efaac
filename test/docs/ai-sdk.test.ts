import { Container } from 'inversify';

import { AffordanceRuntime, installAffordance, ProviderAdapter, Session } from 'affordance';
import { AiSdkAdapter } from 'affordance/ai-sdk';
import { TEST_STATE_SECRET } from 'affordance/testing';

import { bindMistral } from '../../docs/snippets/ai-sdk/container.js';
import { geminiRuntime } from '../../docs/snippets/ai-sdk/gemini.js';
import { askLocally, localAdapter } from '../../docs/snippets/ai-sdk/local-model.js';
import { type WireRequest, WireTestServer } from '../support/ai-sdk-test-server.js';
import {
  geminiWire,
  mistralWire,
  openAICompatibleWire,
  TEST_AI_SDK_KEY,
} from '../support/ai-sdk-wires.js';
import { type CallLog, orderDesk } from '../support/order-desk.js';

describe('docs/guide/ai-sdk.md snippets', () => {
  const servers: WireTestServer[] = [];
  const serve = async (check: (request: WireRequest) => string[]) => {
    const server = await WireTestServer.start(check);
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      await server.close();
      expect(server.problems()).toEqual([]);
      expect(server.pending).toBe(0);
    }
  });

  it('gemini.ts: runs a tool loop on Gemini with the settings and provider options it shows', async () => {
    const server = await serve((request) =>
      request.path === '/v1beta/models/gemini-2.5-flash:generateContent'
        ? []
        : [`unexpected path ${request.path}`],
    );
    server.reply(
      {
        json: geminiWire.whole({
          toolCalls: [{ callId: 'fc-1', name: 'lookup_order', arguments: { orderId: 'A-1' } }],
        }),
      },
      { json: geminiWire.whole({ text: 'A-1 has shipped.' }) },
    );
    const log: CallLog = [];
    const runtime = geminiRuntime({ apiKey: TEST_AI_SDK_KEY, baseURL: `${server.origin}/v1beta` });

    const response = await runtime.evaluate(orderDesk(log), {
      session: new Session(),
      input: 'Where is A-1?',
    });

    expect(response.text).toBe('A-1 has shipped.');
    expect(log).toEqual([['lookup_order', expect.objectContaining({ orderId: 'A-1' }) as unknown]]);
    expect(server.requests[0]!.body['generationConfig']).toMatchObject({
      temperature: 0.2,
      maxOutputTokens: 2048,
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
    });
  });

  it('local-model.ts: asks a Chat Completions server for one evaluation, without an API key', async () => {
    const server = await serve((request) =>
      request.path === '/v1/chat/completions' ? [] : [`unexpected path ${request.path}`],
    );
    server.reply({ json: openAICompatibleWire.whole({ text: 'Hello from llama.' }) });
    const runtime = installAffordance(new Container(), { stateSecret: TEST_STATE_SECRET });

    const response = await askLocally(runtime, orderDesk([]), 'Hi', `${server.origin}/v1`);

    expect(response.text).toBe('Hello from llama.');
    expect(server.requests[0]!.body['model']).toBe('llama3.2');
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(localAdapter().capabilities.structuredOutput).toBe('native');
  });

  it('container.ts: binds Mistral through the options token, retrying a 429', async () => {
    const server = await serve(mistralWire.check);
    server.reply(
      {
        status: 429,
        headers: { 'retry-after': '0.002' },
        json: mistralWire.error(429, 'Slow down.'),
      },
      { json: mistralWire.whole({ text: 'Bonjour.' }) },
    );
    const container = new Container();
    installAffordance(container, { stateSecret: TEST_STATE_SECRET });
    bindMistral(container, TEST_AI_SDK_KEY, `${server.origin}/v1`);

    const response = await container
      .get(AffordanceRuntime)
      .evaluate(orderDesk([]), { session: new Session(), input: 'Salut' });

    expect(response.text).toBe('Bonjour.');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body['model']).toBe('mistral-small-latest');
    expect(container.get(ProviderAdapter)).toBeInstanceOf(AiSdkAdapter);
  });
});
