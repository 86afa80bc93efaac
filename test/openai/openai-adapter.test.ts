import { Container } from 'inversify';
import OpenAI from 'openai';

import { installAffordance } from '../../src/runtime/scope/install-affordance.js';
import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { PromptEvaluationError } from '../../src/core/errors/prompt-evaluation-error.js';
import { PromptRendered } from '../../src/runtime/events/prompt-rendered.js';
import { TokenUsage } from '../../src/provider/token-usage.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import { OpenAIAdapter, OpenAIAdapterOptions } from '../../src/openai/index.js';
import { toolContractHash } from '../../src/prompt/overrides/prompt-descriptor.js';
import { Budget } from '../../src/runtime/limits/budget.js';
import { ProviderAdapter } from '../../src/provider/provider-adapter.js';
import { toJsonSchema } from '../../src/schema/to-json-schema.js';
import { Session } from '../../src/session/session.js';
import type { ToolDefinition } from '../../src/tools/tool-definition.js';
import { catchError, catchRejection } from '../support/catch-error.js';
import { type OpenAIHarness, startOpenAI } from '../support/openai-harness.js';
import {
  functionCall,
  message,
  reasoning,
  responseBody,
  usage,
} from '../support/openai-payloads.js';
import { OpenAITestServer } from '../support/openai-test-server.js';
import {
  AnnotateParams,
  type CallLog,
  LookupOrderParams,
  OrderSummary,
  orderDesk,
} from '../support/order-desk.js';

type Body = Record<string, unknown>;
/** The profile the runtime reads a tool's arguments with: `openai-strict` when the adapter offers it strict. */
const argumentsProfile = (adapter: ProviderAdapter, tool: ToolDefinition) =>
  adapter.toolSpec(tool).strict ? 'openai-strict' : 'standard';
const input = (body: Body | undefined): Body[] => (body?.['input'] ?? []) as Body[];

describe(OpenAIAdapter, () => {
  let harness: OpenAIHarness;
  let log: CallLog;

  beforeEach(() => {
    log = [];
  });
  afterEach(async () => {
    expect(harness.server.problems()).toEqual([]);
    await harness.server.close();
  });

  describe('.request (Responses API)', () => {
    it('should send the prompt as instructions, the input as a user message and function tools with strict explicit', async () => {
      harness = await startOpenAI();
      harness.server.reply({ json: responseBody([message('No order given.')]) });
      const prompt = orderDesk(log);

      const response = await harness.runtime.evaluate(prompt, { input: 'Where is my order?' });

      expect(response.text).toBe('No order given.');
      const body = harness.server.requests[0]?.body;
      expect(body?.['model']).toBe('gpt-test');
      expect(body?.['instructions']).toBe(prompt.render().text);
      expect(input(body)).toEqual([
        { type: 'message', role: 'user', content: 'Where is my order?' },
      ]);
      expect(body?.['tools']).toEqual([
        {
          type: 'function',
          name: 'lookup_order',
          description: 'Look an order up by id.',
          parameters: toJsonSchema(LookupOrderParams, 'openai-strict').schema,
          strict: true,
        },
        {
          type: 'function',
          name: 'annotate',
          description: 'Attach a note to the conversation.',
          parameters: toJsonSchema(AnnotateParams, 'standard').schema,
          strict: false,
        },
      ]);
      expect(body?.['tool_choice']).toBe('auto');
      expect(body?.['parallel_tool_calls']).toBe(true);
      expect(body).not.toHaveProperty('text');
    });

    it('should run the calls, answer each one and carry the reasoning items into the next request', async () => {
      harness = await startOpenAI();
      const thought = reasoning('Look the order up first.');
      const call = functionCall('lookup_order', { orderId: 'A-1', includeItems: null });
      harness.server.reply(
        { json: responseBody([thought, call]) },
        { json: responseBody([message('A-1 has shipped.')]) },
      );
      const session = new Session();

      const response = await harness.runtime.evaluate(orderDesk(log), {
        input: 'Status of A-1?',
        session,
      });

      expect(response.text).toBe('A-1 has shipped.');
      // Strict mode made includeItems required and nullable; the handler sees it absent.
      expect(log).toEqual([
        ['lookup_order', Object.assign(new LookupOrderParams(), { orderId: 'A-1' })],
      ]);
      expect(input(harness.server.requests[1]?.body)).toEqual([
        { type: 'message', role: 'user', content: 'Status of A-1?' },
        thought,
        call,
        {
          type: 'function_call_output',
          call_id: call['call_id'],
          output: 'Found it.\n\n{"orderId":"A-1","status":"shipped"}',
        },
      ]);
      const invoked = session.slice(ToolInvoked).all();
      expect(
        invoked.map((event) => [event.name, event.callId, event.native, event.outcome]),
      ).toEqual([['lookup_order', call['call_id'], false, 'success']]);
    });

    it('should force a named function first and let the model choose again after it was used', async () => {
      harness = await startOpenAI();
      harness.server.reply(
        {
          json: responseBody([
            functionCall('lookup_order', { orderId: 'A-2', includeItems: true }),
          ]),
        },
        { json: responseBody([message('Done.')]) },
      );

      await harness.runtime.evaluate(orderDesk(log), { toolChoice: { name: 'lookup_order' } });

      expect(harness.server.requests.map((request) => request.body['tool_choice'])).toEqual([
        { type: 'function', name: 'lookup_order' },
        'auto',
      ]);
    });

    it.each(['required', 'none'] as const)(
      'should send tool_choice %s as it is',
      async (choice) => {
        harness = await startOpenAI();
        harness.server.reply({ json: responseBody([message('Fine.')]) });

        await harness.runtime.evaluate(orderDesk(log), { toolChoice: choice });

        expect(harness.server.requests[0]?.body['tool_choice']).toBe(choice);
      },
    );

    it('should reject a tool choice naming a tool the prompt does not offer, before any request', async () => {
      harness = await startOpenAI();

      const error = await catchRejection(PromptEvaluationError, () =>
        harness.runtime.evaluate(orderDesk(log), { toolChoice: { name: 'cancel_order' } }),
      );

      expect(error.phase).toBe('request');
      expect(error.message).toContain("toolChoice names 'cancel_order'");
      expect(error.message).toContain('lookup_order, annotate');
      expect(harness.server.requests).toHaveLength(0);
    });

    it('should ask for json_schema output and read optional fields sent as null as absent', async () => {
      harness = await startOpenAI();
      harness.server.reply({ json: responseBody([message('{"orderId":"A-3","note":null}')]) });

      const response = await harness.runtime.evaluate(orderDesk(log, OrderSummary));

      expect(response.output).toEqual(Object.assign(new OrderSummary(), { orderId: 'A-3' }));
      // Without the adapter's normalisation the optional field would hold the null strict mode sent.
      expect((response.output as OrderSummary).note).toBeUndefined();
      expect(harness.server.requests[0]?.body['text']).toEqual({
        format: {
          type: 'json_schema',
          name: 'order-desk',
          schema: toJsonSchema(OrderSummary, 'openai-strict').schema,
          strict: true,
        },
      });
    });

    it('should ask for a list output as an object wrapping the items', async () => {
      harness = await startOpenAI();
      harness.server.reply({
        json: responseBody([
          message('{"items":[{"orderId":"A-1","note":null},{"orderId":"A-2","note":"late"}]}'),
        ]),
      });

      const response = await harness.runtime.evaluate(orderDesk(log, [OrderSummary]));

      expect(response.output).toEqual([
        Object.assign(new OrderSummary(), { orderId: 'A-1' }),
        Object.assign(new OrderSummary(), { orderId: 'A-2', note: 'late' }),
      ]);
      const format = (harness.server.requests[0]?.body['text'] as Body)['format'] as Body;
      expect((format['schema'] as Body)['required']).toEqual(['items']);
    });

    it('should add up the usage of every turn and stop when the budget is exceeded', async () => {
      harness = await startOpenAI();
      harness.server.reply(
        {
          json: responseBody(
            [functionCall('lookup_order', { orderId: 'A-1', includeItems: null })],
            { usage: usage(300, 40, 100, 25) },
          ),
        },
        { json: responseBody([message('Shipped.')], { usage: usage(420, 15, 0, 4) }) },
      );

      const response = await harness.runtime.evaluate(orderDesk(log));

      // output_tokens_details.reasoning_tokens of both responses, summed.
      expect(response.usage).toEqual(
        new TokenUsage({
          inputTokens: 720,
          outputTokens: 55,
          cachedTokens: 100,
          reasoningTokens: 29,
        }),
      );

      harness.server.reply({
        json: responseBody([functionCall('lookup_order', { orderId: 'A-1', includeItems: null })], {
          usage: usage(900, 200),
        }),
      });
      const session = new Session();
      const error = await catchRejection(PromptEvaluationError, () =>
        harness.runtime.evaluate(orderDesk(log), {
          session,
          budget: new Budget({ maxTotalTokens: 1_000 }),
        }),
      );
      expect(error.phase).toBe('budget');
      expect(session.slice(PromptRendered).all()).toHaveLength(1);
    });

    it('should send the model settings, ask for encrypted reasoning when nothing is stored, and merge extraBody', async () => {
      harness = await startOpenAI({
        parallelToolCalls: false,
        modelSettings: {
          maxOutputTokens: 2_000,
          temperature: 0.2,
          topP: 0.9,
          reasoning: { effort: 'low', summary: 'auto' },
          store: false,
          verbosity: 'low',
          serviceTier: 'flex',
          safetyIdentifier: 'user-hash-1',
          promptCacheKey: 'orders',
          metadata: { app: 'test' },
          extraBody: { truncation: 'auto' },
        },
      });
      harness.server.reply({ json: responseBody([message('Ok.')]) });

      await harness.runtime.evaluate(orderDesk(log));

      expect(harness.server.requests[0]?.body).toMatchObject({
        parallel_tool_calls: false,
        max_output_tokens: 2_000,
        temperature: 0.2,
        top_p: 0.9,
        reasoning: { effort: 'low', summary: 'auto' },
        store: false,
        include: ['reasoning.encrypted_content'],
        text: { verbosity: 'low' },
        service_tier: 'flex',
        safety_identifier: 'user-hash-1',
        prompt_cache_key: 'orders',
        metadata: { app: 'test' },
        truncation: 'auto',
      });
    });

    it('should put the prompt in a developer message when asked to', async () => {
      harness = await startOpenAI({ instructionsRole: 'developer' });
      harness.server.reply({ json: responseBody([message('Ok.')]) });
      const prompt = orderDesk(log);

      await harness.runtime.evaluate(prompt, { input: 'Hi' });

      const body = harness.server.requests[0]?.body;
      expect(body).not.toHaveProperty('instructions');
      expect(input(body)).toEqual([
        { type: 'message', role: 'developer', content: prompt.render().text },
        { type: 'message', role: 'user', content: 'Hi' },
      ]);
    });

    it('should send field descriptions from prompt overrides', async () => {
      harness = await startOpenAI();
      harness.server.reply({ json: responseBody([message('Ok.')]) });
      const prompt = orderDesk(log);

      const lookup = prompt.allTools[0]!;
      await harness.runtime.evaluate(prompt, {
        overrides: {
          ns: prompt.ns,
          key: prompt.key,
          tag: 'latest',
          sections: [],
          tools: [
            {
              name: 'lookup_order',
              expectedContractHash: toolContractHash(lookup),
              paramDescriptions: { orderId: 'The customer order number' },
            },
          ],
        },
      });

      const tools = harness.server.requests[0]?.body['tools'] as Body[];
      const properties = (tools[0]?.['parameters'] as Body)['properties'] as Record<string, Body>;
      expect(properties['orderId']?.['description']).toBe('The customer order number');
      expect(properties['includeItems']?.['description']).toBe('Whether to list the items');
    });
  });

  describe('.argumentsProfile', () => {
    it('should read strict tools with the openai-strict profile and the others with the standard one', async () => {
      harness = await startOpenAI();
      const [lookup, annotate] = orderDesk(log).render().tools;

      expect(argumentsProfile(harness.adapter, lookup!)).toBe('openai-strict');
      expect(argumentsProfile(harness.adapter, annotate!)).toBe('standard');
    });

    it('should use the standard profile everywhere when strict tools are off', async () => {
      harness = await startOpenAI({ strictTools: false });
      harness.server.reply({ json: responseBody([message('Ok.')]) });
      const [lookup] = orderDesk(log).render().tools;

      await harness.runtime.evaluate(orderDesk(log));

      expect(argumentsProfile(harness.adapter, lookup!)).toBe('standard');
      const tools = harness.server.requests[0]?.body['tools'] as Body[];
      expect(tools[0]).toMatchObject({
        strict: false,
        parameters: toJsonSchema(LookupOrderParams, 'standard').schema,
      });
    });
  });

  describe('constructor', () => {
    it('should build its own client from options.client when the container binds none', async () => {
      const server = await OpenAITestServer.start();
      harness = { server } as OpenAIHarness;
      const container = new Container();
      const runtime = installAffordance(container);
      container.bind(OpenAIAdapterOptions).toConstantValue({
        model: 'gpt-test',
        client: { apiKey: 'sk-own', baseURL: server.baseURL },
      });
      container.bind(ProviderAdapter).to(OpenAIAdapter);
      server.reply({ json: responseBody([message('Hello.')]) });

      const adapter = container.get(ProviderAdapter);
      const response = await runtime.evaluate(orderDesk(log), { adapter });

      expect(adapter).toBeInstanceOf(OpenAIAdapter);
      expect(adapter instanceof OpenAIAdapter && adapter.client).toBeInstanceOf(OpenAI);
      expect(response.text).toBe('Hello.');
      expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-own');
    });

    it('should reject options without a model or with an unknown api', async () => {
      harness = await startOpenAI();
      const client = harness.server.client();

      const missing = catchError(
        ConfigurationError,
        () => new OpenAIAdapter(client, {} as OpenAIAdapterOptions),
      );
      const api = catchError(
        ConfigurationError,
        () => new OpenAIAdapter(client, { model: 'm', api: 'completions' as never }),
      );

      expect(missing.subject).toBe('OpenAIAdapterOptions.model');
      expect(api.message).toContain("must be 'responses' or 'chat'");
    });
  });
});
