import { inspect } from 'node:util';

import { IsString } from 'class-validator';
import { Container } from 'inversify';

import {
  ConfigurationError,
  type EvaluationState,
  installAffordance,
  MarkdownSection,
  Prompt,
  Session,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import {
  AiSdkAdapter,
  AiSdkAdapterOptions,
  type AiSdkLanguageModel,
  SUPPORTED_SPECIFICATION_VERSIONS,
} from 'affordance/ai-sdk';
import { ProviderAdapter, type ProviderTurn } from 'affordance/provider';
import { TEST_STATE_SECRET } from 'affordance/testing';

import { type AiSdkHarness, startAiSdk } from '../support/ai-sdk-harness.js';
import type { Json } from '../support/ai-sdk-test-server.js';
import {
  geminiWire,
  mistralWire,
  openAICompatibleWire,
  type Wire,
  wires,
} from '../support/ai-sdk-wires.js';
import { catchError } from '../support/catch-error.js';
import { collect, providerRequest, reasoningOf, textOf } from '../support/openai-streams.js';
import { orderDesk, OrderSummary } from '../support/order-desk.js';

const harnesses: AiSdkHarness[] = [];
async function start(wire: Wire, options: Partial<AiSdkAdapterOptions> = {}) {
  const harness = await startAiSdk(wire, options);
  harnesses.push(harness);
  return harness;
}
afterEach(async () => {
  for (const harness of harnesses.splice(0)) {
    await harness.server.close();
    expect(harness.server.problems()).toEqual([]);
  }
});

const bodyOf = (harness: AiSdkHarness, index = 0): Json => harness.server.requests[index]!.body;
const rawOf = (turn: ProviderTurn) => turn.raw as Json;

describe('AiSdkAdapter construction', () => {
  const gemini = geminiWire.model('http://127.0.0.1:9');

  it('should refuse a model id string, naming the fix', () => {
    const error = catchError(
      ConfigurationError,
      () => new AiSdkAdapter({ model: 'gemini-2.5-flash' as unknown as AiSdkLanguageModel }),
    );
    expect(error.message).toContain("is the string 'gemini-2.5-flash'");
    expect(error.message).toContain("google('gemini-2.5-flash')");
  });

  it('should refuse a model of another specification version, naming it and the supported ones', () => {
    const v4 = { ...delegate(gemini), specificationVersion: 'v4' };
    const error = catchError(ConfigurationError, () => new AiSdkAdapter({ model: v4 }));
    expect(error.message).toContain(
      "AiSdkAdapterOptions.model: has specificationVersion 'v4'; this adapter supports 'v3' and 'v2'.",
    );
    expect(error.message).toContain('acceptUntestedSpecification: true');
    expect(SUPPORTED_SPECIFICATION_VERSIONS).toEqual(['v3', 'v2']);
  });

  it('should refuse an object without a specification version', () => {
    const error = catchError(
      ConfigurationError,
      () => new AiSdkAdapter({ model: { modelId: 'x' } as unknown as AiSdkLanguageModel }),
    );
    expect(error.message).toContain('has no specificationVersion');
  });

  it('should refuse an untested version whose shape does not fit, even when accepting untested ones', () => {
    const odd = { specificationVersion: 'v4', provider: 'x', modelId: 'y' } as unknown;
    const error = catchError(
      ConfigurationError,
      () =>
        new AiSdkAdapter({
          model: odd as AiSdkLanguageModel,
          acceptUntestedSpecification: true,
        }),
    );
    expect(error.message).toContain('lacks doGenerate/doStream');
  });

  it('should serve a newer model object whose shape fits when told to accept untested versions', async () => {
    const harness = await start(geminiWire);
    const v4 = { ...delegate(geminiWire.model(harness.server.origin)), specificationVersion: 'v4' };
    const adapter = new AiSdkAdapter({ model: v4, acceptUntestedSpecification: true });
    harness.server.reply({ json: geminiWire.whole({ text: 'From v4.' }) });

    const turn = await adapter.request(providerRequest(adapter, orderDesk([])));

    expect(turn.text).toBe('From v4.');
  });

  it('should resolve from the container with its options token, named after the model object', () => {
    const container = new Container();
    installAffordance(container, { stateSecret: TEST_STATE_SECRET });
    container.bind(AiSdkAdapterOptions).toConstantValue({ model: gemini });
    container.bind(ProviderAdapter).to(AiSdkAdapter).inSingletonScope();

    const adapter = container.get(ProviderAdapter);

    expect(adapter).toBeInstanceOf(AiSdkAdapter);
    expect([adapter.name, adapter.model]).toEqual(['google.generative-ai', 'gemini-test']);
  });

  it('should declare capabilities from its options and what the model object says', () => {
    const google = new AiSdkAdapter({ model: gemini });
    const local = new AiSdkAdapter({
      model: openAICompatibleWire.model('http://127.0.0.1:9'),
    });
    const plain = new AiSdkAdapter({
      model: delegate(openAICompatibleWire.model('http://127.0.0.1:9'), false),
      strictTools: true,
      parallelToolCalls: false,
    });

    expect(google.capabilities).toMatchObject({
      streaming: true,
      structuredOutput: 'native',
      strictTools: false,
      // Google Search, URL context, code execution and file search map to Gemini's tools.
      nativeTools: true,
      parallelToolCalls: true,
    });
    expect(local.capabilities.structuredOutput).toBe('native');
    expect(local.capabilities.nativeTools).toBe(false);
    expect(plain.capabilities).toMatchObject({
      structuredOutput: 'text',
      strictTools: true,
      parallelToolCalls: false,
    });
  });

  it('should show its name and model when printed, never the model object', () => {
    const adapter = new AiSdkAdapter({ model: gemini, secrets: ['sk-secret-123456789'] });
    expect(JSON.stringify(adapter)).toBe('{"name":"google.generative-ai","model":"gemini-test"}');
    expect(inspect(adapter)).not.toContain('secret');
  });
});

describe('AiSdkAdapter requests over @ai-sdk/google', () => {
  it('should send the tools, the forced tool choice, settings and provider options as Gemini fields', async () => {
    const harness = await start(geminiWire, {
      settings: { temperature: 0.25, maxOutputTokens: 512, stopSequences: ['END'] },
      providerOptions: { google: { thinkingConfig: { thinkingBudget: 128 } } },
    });
    harness.server.reply({ json: geminiWire.whole({ text: 'ok' }) });

    await harness.adapter.request({
      ...providerRequest(harness.adapter, orderDesk([])),
      toolChoice: { name: 'lookup_order' },
    });

    const body = bodyOf(harness);
    const declarations = (body['tools'] as Json[])[0]!['functionDeclarations'] as Json[];
    expect(declarations.map((entry) => entry['name'])).toEqual(['lookup_order', 'annotate']);
    expect(body['toolConfig']).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['lookup_order'] },
    });
    expect(body['generationConfig']).toMatchObject({
      temperature: 0.25,
      maxOutputTokens: 512,
      stopSequences: ['END'],
      thinkingConfig: { thinkingBudget: 128 },
    });
    expect((body['systemInstruction'] as Json)['parts']).toEqual([
      { text: expect.stringContaining('Answer questions about orders.') as unknown },
    ]);
  });

  it('should ask for strict tools in VALIDATED mode when strictTools is on', async () => {
    const harness = await start(geminiWire, { strictTools: true });
    harness.server.reply({ json: geminiWire.whole({ text: 'ok' }) });

    await harness.adapter.request(providerRequest(harness.adapter, orderDesk([])));

    expect(bodyOf(harness)['toolConfig']).toEqual({
      functionCallingConfig: { mode: 'VALIDATED' },
    });
  });

  it('should send the output schema as Gemini JSON output and read the answer into the class', async () => {
    const harness = await start(geminiWire);
    harness.server.reply({ json: geminiWire.whole({ text: '{"orderId":"A-1","note":"ok"}' }) });

    const response = await harness.runtime.evaluate(orderDesk([], OrderSummary), {
      session: new Session(),
      input: 'A-1?',
    });

    expect(response.output).toEqual(
      Object.assign(new OrderSummary(), { orderId: 'A-1', note: 'ok' }),
    );
    const config = bodyOf(harness)['generationConfig'] as Json;
    expect(config['responseMimeType']).toBe('application/json');
    expect(Object.keys(config['responseSchema'] as Json)).toContain('properties');
  });

  it('should carry a thought signature back to Gemini with the call it came with', async () => {
    const harness = await start(geminiWire);
    harness.server.reply(
      {
        json: geminiWire.whole({
          reasoning: 'Look it up first.',
          toolCalls: [{ callId: 'call_1', name: 'lookup_order', arguments: { orderId: 'A-1' } }],
        }),
      },
      { json: geminiWire.whole({ text: 'Shipped.' }) },
    );

    const response = await harness.runtime.evaluate(orderDesk([]), {
      session: new Session(),
      input: 'A-1?',
    });

    expect(response.text).toBe('Shipped.');
    const model = (bodyOf(harness, 1)['contents'] as Json[]).find((c) => c['role'] === 'model')!;
    const call = (model['parts'] as Json[]).find((part) => part['functionCall'] !== undefined)!;
    expect(call).toMatchObject({
      functionCall: { id: 'call_1', name: 'lookup_order', args: { orderId: 'A-1' } },
      thoughtSignature: 'sig-call_1',
    });
  });

  it("should record the calls Gemini ran itself (code execution) as the provider's calls", async () => {
    const harness = await start(geminiWire);
    harness.server.reply({
      json: {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { executableCode: { language: 'PYTHON', code: 'print(6 * 7)' } },
                { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '42\n' } },
                { text: 'It is 42.' },
              ],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 5, totalTokenCount: 10 },
      },
    });

    const turn = await harness.adapter.request(providerRequest(harness.adapter, orderDesk([])));

    expect(turn.text).toBe('It is 42.');
    expect(turn.toolCalls).toEqual([]);
    expect(
      turn.nativeCalls?.map((call) => [
        call.name,
        call.arguments,
        call.result.ok,
        call.result.value,
      ]),
    ).toEqual([
      [
        'code_execution',
        { language: 'PYTHON', code: 'print(6 * 7)' },
        true,
        { outcome: 'OUTCOME_OK', output: '42\n' },
      ],
    ]);
  });
});

describe('AiSdkAdapter requests over Chat Completions packages', () => {
  it('should send strict function tools where the params class fits, and the tool choice', async () => {
    const harness = await start(openAICompatibleWire, { strictTools: true });
    harness.server.reply({ json: openAICompatibleWire.whole({ text: 'ok' }) });

    await harness.adapter.request({
      ...providerRequest(harness.adapter, orderDesk([])),
      toolChoice: 'required',
    });

    const tools = bodyOf(harness)['tools'] as Json[];
    expect(
      tools.map((tool) => [
        (tool['function'] as Json)['name'],
        (tool['function'] as Json)['strict'],
      ]),
    ).toEqual([
      ['lookup_order', true],
      ['annotate', undefined],
    ]);
    expect(bodyOf(harness)['tool_choice']).toBe('required');
  });

  it('should send the output schema as a json_schema response format to Mistral', async () => {
    const harness = await start(mistralWire);
    harness.server.reply({ json: mistralWire.whole({ text: '{"orderId":"A-1"}' }) });

    const response = await harness.runtime.evaluate(orderDesk([], OrderSummary), {
      session: new Session(),
      input: 'A-1?',
    });

    expect(response.output).toEqual(Object.assign(new OrderSummary(), { orderId: 'A-1' }));
    expect(bodyOf(harness)['response_format']).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'OrderSummary' },
    });
  });
});

describe.each(wires.map((wire) => [wire.name, wire] as const))(
  'AiSdkAdapter answers over %s',
  (_name, wire: Wire) => {
    const answer = {
      text: 'Order A-1 has shipped.',
      reasoning: 'The order was looked up.',
      inputTokens: 120,
      outputTokens: 40,
      cachedTokens: 30,
      reasoningTokens: 12,
    };
    const meta =
      wire === geminiWire
        ? // @ai-sdk/google reports the model id it asked for, not Gemini's modelVersion.
          { id: 'resp-gemini-1', model: 'gemini-test' }
        : { id: `cmpl-${wire.name}-1`, model: 'test-model' };

    it('should read text, usage, finish reason and response metadata of a whole answer', async () => {
      const harness = await start(wire);
      harness.server.reply({ json: wire.whole(answer) });

      const turn = await harness.adapter.request(providerRequest(harness.adapter, orderDesk([])));

      expect(turn.text).toBe(answer.text);
      expect(turn.finishReason).toBe('stop');
      expect(turn.usage?.toJSON()).toMatchObject({ inputTokens: 120, outputTokens: 40 });
      expect(rawOf(turn)).toMatchObject({ ...meta, provider: harness.adapter.name });
      if (wire !== mistralWire) {
        // Mistral's usage has no cache or reasoning counts.
        expect(turn.usage?.cachedTokens).toBe(30);
        expect(turn.usage?.reasoningTokens).toBe(12);
        expect((rawOf(turn)['usage'] as Json)['reasoningTokens']).toBe(12);
      }
    });

    it('should stream reasoning and text deltas and end with the turn request() reads', async () => {
      const harness = await start(wire);
      harness.server.reply({ events: wire.events(answer) }, { json: wire.whole(answer) });

      const { parts, error } = await collect(
        harness.adapter.stream(providerRequest(harness.adapter, orderDesk([]))),
      );
      const whole = await harness.adapter.request(providerRequest(harness.adapter, orderDesk([])));

      expect(error).toBeUndefined();
      expect(reasoningOf(parts)).toBe(answer.reasoning);
      expect(textOf(parts)).toBe(answer.text);
      const last = parts.at(-1);
      if (last?.type !== 'turn') throw new Error('the stream did not end with its turn');
      expect(last.turn.text).toBe(whole.text);
      expect(last.turn.usage).toEqual(whole.usage);
      expect(last.turn.finishReason).toBe(whole.finishReason);
      // The same parts; @ai-sdk/groq orders a whole answer's text before its reasoning.
      expect(itemParts(last.turn)).toEqual(itemParts(whole));
      expect(rawOf(last.turn)).toMatchObject(meta);
    });

    it('should stream each tool call as its start and argument pieces', async () => {
      const harness = await start(wire);
      const calls = [
        { callId: 'call_a', name: 'lookup_order', arguments: { orderId: 'A-1' } },
        { callId: 'call_b', name: 'lookup_order', arguments: { orderId: 'B-22' } },
      ];
      harness.server.reply({ events: wire.events({ toolCalls: calls }) });

      const { parts } = await collect(
        harness.adapter.stream(providerRequest(harness.adapter, orderDesk([]))),
      );

      const starts = parts.flatMap((part) =>
        part.type === 'tool-call-start' ? [[part.callId, part.name]] : [],
      );
      expect(starts).toEqual([
        ['call_a', 'lookup_order'],
        ['call_b', 'lookup_order'],
      ]);
      for (const call of calls) {
        const text = parts
          .map((part) =>
            part.type === 'tool-arguments-delta' && part.callId === call.callId ? part.delta : '',
          )
          .join('');
        expect(JSON.parse(text)).toEqual(call.arguments);
      }
      const last = parts.at(-1);
      expect(last?.type === 'turn' ? last.turn.finishReason : undefined).toBe('tool_calls');
    });
  },
);

class RefundParams {
  @IsString() orderId!: string;
}

const refundPrompt = (refunded: string[]) =>
  new Prompt({
    ns: 'test',
    key: 'refunds',
    sections: [
      new MarkdownSection({
        key: 'refunds',
        title: 'Refunds',
        template: 'Refund orders when asked.',
        tools: [
          new ToolDefinition({
            name: 'refund',
            description: 'Refund an order.',
            params: RefundParams,
            approval: true,
            handler: (params: RefundParams) => {
              refunded.push(params.orderId);
              return ToolResult.ok({ refunded: params.orderId }, 'Refunded.');
            },
          }),
        ],
      }),
    ],
  });

describe('AiSdkAdapter conversation items', () => {
  it("should pause on Gemini and resume in a fresh runtime and adapter, the call's thought signature carried through the saved JSON", async () => {
    const refunded: string[] = [];
    const first = await start(geminiWire);
    first.server.reply({
      json: geminiWire.whole({
        reasoning: 'A refund needs approval.',
        toolCalls: [{ callId: 'call_r1', name: 'refund', arguments: { orderId: 'A-1' } }],
      }),
    });
    const session = new Session();
    const paused = await first.runtime.evaluate(refundPrompt(refunded), {
      session,
      input: 'Refund A-1.',
    });
    if (paused.status !== 'interrupted') throw new Error('the evaluation did not pause');
    expect(refunded).toEqual([]);
    const saved = JSON.stringify(paused.interruption.state);

    const second = await start(geminiWire);
    second.server.reply({ json: geminiWire.whole({ text: 'Refunded A-1.' }) });
    const done = await second.runtime.resume(
      refundPrompt(refunded),
      JSON.parse(saved) as EvaluationState,
      [{ callId: 'call_r1', approved: true }],
      { session },
    );

    expect(done.text).toBe('Refunded A-1.');
    expect(refunded).toEqual(['A-1']);
    const contents = bodyOf(second)['contents'] as Json[];
    expect(contents.map((content) => content['role'])).toEqual(['user', 'model', 'user']);
    expect(contents[1]!['parts']).toContainEqual({
      functionCall: { id: 'call_r1', name: 'refund', args: { orderId: 'A-1' } },
      thoughtSignature: 'sig-call_r1',
    });
    expect(geminiWire.toolResultsOf(bodyOf(second))).toEqual([
      { callId: 'call_r1', content: expect.stringContaining('Refunded.') as unknown },
    ]);
  });

  it("should send another provider's turn in neutral form, its provider details dropped", async () => {
    const gemini = await start(geminiWire);
    gemini.server.reply({
      json: geminiWire.whole({
        reasoning: 'Look it up.',
        toolCalls: [{ callId: 'call_1', name: 'lookup_order', arguments: { orderId: 'A-1' } }],
      }),
    });
    const geminiTurn = await gemini.adapter.request(providerRequest(gemini.adapter, orderDesk([])));
    const mistral = await start(mistralWire);
    mistral.server.reply({ json: mistralWire.whole({ text: 'Shipped.' }) });
    const base = providerRequest(mistral.adapter, orderDesk([]));

    await mistral.adapter.request({
      ...base,
      messages: [
        ...base.messages,
        {
          role: 'assistant',
          content: null,
          toolCalls: geminiTurn.toolCalls ?? [],
          providerItems: geminiTurn.providerItems ?? [],
        },
        {
          role: 'tool',
          callId: 'call_1',
          name: 'lookup_order',
          content: 'Found it.',
          result: ToolResult.ok(null),
        },
      ],
    });

    const body = bodyOf(mistral);
    expect((body['messages'] as Json[]).slice(2)).toEqual([
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'lookup_order', arguments: '{"orderId":"A-1"}' },
          },
        ],
      },
      { role: 'tool', name: 'lookup_order', tool_call_id: 'call_1', content: 'Found it.' },
    ]);
    expect(JSON.stringify(body)).not.toContain('sig-call_1');
    expect(JSON.stringify(body)).not.toContain('Look it up.');
  });
});

/** The parts of a turn's provider item, in a fixed order. */
function itemParts(turn: ProviderTurn): unknown[] {
  const item = (turn.providerItems ?? [])[0] as { content?: { type: string }[] } | undefined;
  return [...(item?.content ?? [])].sort((a, b) => a.type.localeCompare(b.type));
}

/** A plain object delegating to `model` (not the package's class), optionally saying it lacks structured outputs. */
function delegate(model: AiSdkLanguageModel, structured?: boolean): AiSdkLanguageModel {
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    ...(structured === undefined ? {} : { supportsStructuredOutputs: structured }),
    doGenerate: (options) => model.doGenerate(options),
    doStream: (options) => model.doStream(options),
  };
}
