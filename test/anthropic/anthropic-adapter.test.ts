import { inspect } from 'node:util';

import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { PromptEvaluationError } from '../../src/core/errors/prompt-evaluation-error.js';
import { PromptValidationError } from '../../src/core/errors/prompt-validation-error.js';
import { AnthropicAdapter } from '../../src/anthropic/index.js';
import { MarkdownSection } from '../../src/prompt/markdown-section.js';
import { Prompt } from '../../src/prompt/prompt.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import { Session } from '../../src/session/session.js';
import { NativeTool } from '../../src/tools/native-tool.js';
import { catchError, catchRejection } from '../support/catch-error.js';
import { type AnthropicHarness, startAnthropic } from '../support/anthropic-harness.js';
import { message, messageBody, text, toolUse, usage } from '../support/anthropic-payloads.js';
import { TEST_ANTHROPIC_KEY } from '../support/anthropic-test-server.js';
import { type CallLog, orderDesk, OrderSummary } from '../support/order-desk.js';

type Json = Record<string, unknown>;

describe(AnthropicAdapter, () => {
  let harness: AnthropicHarness | undefined;
  let log: CallLog;
  let session: Session;

  const start = async (options: Record<string, unknown> = {}): Promise<AnthropicHarness> => {
    harness = await startAnthropic(options);
    return harness;
  };
  beforeEach(() => {
    log = [];
    session = new Session();
  });
  afterEach(async () => {
    if (harness === undefined) return;
    const { server } = harness;
    harness = undefined;
    await server.close();
    expect(server.problems()).toEqual([]);
    expect(server.pending).toBe(0);
  });

  describe('.request (requests)', () => {
    it('should send the rendered prompt as system, the input as a user message, the tools and max_tokens', async () => {
      const { server, runtime } = await start();
      server.reply({ json: messageBody({ text: 'A-1 has shipped.' }) });

      const response = await runtime.evaluate(orderDesk(log), { session, input: 'Where is A-1?' });

      expect(response.text).toBe('A-1 has shipped.');
      const request = server.requests[0]!;
      const body = request.body;
      expect(body['model']).toBe('claude-test');
      expect(body['max_tokens']).toBe(4096);
      expect(String(body['system'])).toContain('Look orders up before answering.');
      expect(body['messages']).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Where is A-1?' }] },
      ]);
      const tools = body['tools'] as Json[];
      expect(tools.map((tool) => [tool['name'], tool['strict']])).toEqual([
        ['lookup_order', undefined],
        ['annotate', undefined],
      ]);
      // The standard draft 2020-12 schema: the optional field stays optional.
      expect((tools[0]!['input_schema'] as Json)['required']).toEqual(['orderId']);
      expect(body['tool_choice']).toEqual({ type: 'auto' });
      // The SDK's own retries are off and an explicit timeout is sent (no 10-minute guard).
      expect(request.headers['x-stainless-retry-count']).toBe('0');
      expect(request.headers['x-stainless-timeout']).toBe('600');
      expect(request.headers.authorization).toBe(`Bearer ${TEST_ANTHROPIC_KEY}`);
    });

    it('should send a large max_tokens without streaming, which the SDK refuses without a timeout', async () => {
      const { server, runtime } = await start({ maxTokens: 64_000 });
      server.reply({ json: messageBody({ text: 'Fine.' }) });

      await runtime.evaluate(orderDesk(log), { session, input: 'Hi' });

      expect(server.requests[0]!.body['max_tokens']).toBe(64_000);
    });

    it('should map each tool choice and the parallel setting', async () => {
      const { server, runtime } = await start({ parallelToolCalls: false });
      const answers = ['required', 'none', { name: 'annotate' }] as const;
      for (const _ of answers) server.reply({ json: messageBody({ text: 'Ok.' }) });

      for (const toolChoice of answers) {
        await runtime.evaluate(orderDesk(log), { session, input: 'Hi', toolChoice });
      }

      expect(server.requests.map((request) => request.body['tool_choice'])).toEqual([
        { type: 'any', disable_parallel_tool_use: true },
        { type: 'none' },
        { type: 'tool', name: 'annotate', disable_parallel_tool_use: true },
      ]);
    });

    it('should send strict tools with the strict schema only when asked and the params fit', async () => {
      const { server, runtime } = await start({ strictTools: true });
      server.reply({ json: messageBody({ text: 'Ok.' }) });

      await runtime.evaluate(orderDesk(log), { session, input: 'Hi' });

      const tools = server.requests[0]!.body['tools'] as Json[];
      expect(tools.map((tool) => tool['strict'])).toEqual([true, undefined]);
      expect((tools[0]!['input_schema'] as Json)['required']).toEqual(['orderId', 'includeItems']);
    });

    it('should send model settings, thinking and cache breakpoints on the system prompt and the last tool', async () => {
      const { server, runtime } = await start({
        maxTokens: 8000,
        thinking: { budgetTokens: 2000 },
        cache: { ttl: '1h' },
        modelSettings: {
          topP: 0.9,
          topK: 40,
          stopSequences: ['END'],
          userId: 'user-1',
          serviceTier: 'auto',
        },
      });
      server.reply({ json: messageBody({ text: 'Ok.' }) });

      await runtime.evaluate(orderDesk(log), { session, input: 'Hi' });

      const body = server.requests[0]!.body;
      const breakpoint = { type: 'ephemeral', ttl: '1h' };
      expect((body['system'] as Json[]).map((block) => block['cache_control'])).toEqual([
        breakpoint,
      ]);
      expect((body['tools'] as Json[]).map((tool) => tool['cache_control'])).toEqual([
        undefined,
        breakpoint,
      ]);
      expect(body['thinking']).toEqual({ type: 'enabled', budget_tokens: 2000 });
      expect([
        body['top_p'],
        body['top_k'],
        body['stop_sequences'],
        body['metadata'],
        body['service_tier'],
      ]).toEqual([0.9, 40, ['END'], { user_id: 'user-1' }, 'auto']);
    });
  });

  describe('.request (turns)', () => {
    it('should run parallel tool_use blocks in order and send every result in one user message', async () => {
      const { server, runtime } = await start();
      server.reply(
        {
          json: message([
            text('Looking both up.'),
            toolUse('lookup_order', { orderId: 'A-1' }, 'toolu_01first'),
            toolUse('lookup_order', { orderId: 'x' }, 'toolu_01second'),
          ]),
        },
        { json: messageBody({ text: 'A-1 shipped; the other id is invalid.' }) },
      );

      await runtime.evaluate(orderDesk(log), { session, input: 'A-1 and x?' });

      expect(log).toEqual([['lookup_order', expect.objectContaining({ orderId: 'A-1' })]]);
      const messages = server.requests[1]!.body['messages'] as Json[];
      expect(messages.map((entry) => entry['role'])).toEqual(['user', 'assistant', 'user']);
      const results = messages[2]!['content'] as Json[];
      expect(
        results.map((block) => [block['type'], block['tool_use_id'], block['is_error']]),
      ).toEqual([
        ['tool_result', 'toolu_01first', false],
        ['tool_result', 'toolu_01second', true],
      ]);
      expect(String(results[1]!['content'])).toContain('Tool validation failed');
    });

    it('should send thinking and redacted thinking blocks back unchanged', async () => {
      const { server, runtime } = await start({
        maxTokens: 8000,
        thinking: { budgetTokens: 2000 },
      });
      const thinking = [
        { type: 'thinking', thinking: 'Look it up first.', signature: 'sig-abc' },
        { type: 'redacted_thinking', data: 'opaque-data' },
      ];
      const call = toolUse('lookup_order', { orderId: 'A-1' });
      server.reply(
        { json: message([...thinking, call]) },
        { json: messageBody({ text: 'Shipped.' }) },
      );

      await runtime.evaluate(orderDesk(log), { session, input: 'A-1?' });

      const assistant = (server.requests[1]!.body['messages'] as Json[])[1]!;
      expect(assistant).toEqual({ role: 'assistant', content: [...thinking, call] });
    });

    it('should add cache reads and writes to the input tokens and report each apart', async () => {
      const { server, runtime } = await start();
      const counted = { ...usage(10, 7, 300), cache_creation_input_tokens: 50 };
      server.reply({ json: message([text('Ok.')], { usage: counted }) });

      const response = await runtime.evaluate(orderDesk(log), { session, input: 'Hi' });

      expect(response.usage!.toJSON()).toEqual({
        inputTokens: 10 + 50 + 300,
        outputTokens: 7,
        cachedTokens: 300,
        cacheWriteTokens: 50,
        totalTokens: 367,
      });
    });

    it('should continue a pause_turn with the content so far and answer once', async () => {
      const { server, runtime } = await start();
      const search = {
        type: 'server_tool_use',
        id: 'srvtoolu_01a',
        name: 'web_search',
        input: { query: 'acme' },
      };
      const found = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01a', content: [] };
      server.reply(
        { json: message([search, found], { stop_reason: 'pause_turn' }) },
        { json: messageBody({ text: 'Nothing found.' }) },
      );
      const prompt = new Prompt({
        ns: 'test/anthropic',
        key: 'search',
        sections: [
          new MarkdownSection({
            key: 'search',
            title: 'Search',
            template: 'Search the web.',
            tools: [new NativeTool({ type: 'web_search', config: { max_uses: 3 } })],
          }),
        ],
      });

      const response = await runtime.evaluate(prompt, { session, input: 'acme?' });

      expect(response.text).toBe('Nothing found.');
      const continued = server.requests[1]!.body['messages'] as Json[];
      expect(continued.at(-1)).toEqual({ role: 'assistant', content: [search, found] });
      expect((server.requests[0]!.body['tools'] as Json[])[0]).toEqual({
        type: 'web_search_20250305',
        name: 'web_search',
        max_uses: 3,
      });
      const native = session
        .slice(ToolInvoked)
        .all()
        .filter((event) => event.native);
      expect(native.map((event) => [event.name, event.callId, event.outcome])).toEqual([
        ['web_search', 'srvtoolu_01a', 'success'],
      ]);
      expect(response.usage!.inputTokens).toBe(200);
    });
  });

  describe('.request (structured output)', () => {
    it('should ask for json_schema output and decode the strict answer', async () => {
      const { server, runtime } = await start();
      server.reply({ json: messageBody({ text: '{"orderId":"A-1","note":null}' }) });

      const response = await runtime.evaluate(orderDesk(log, OrderSummary), {
        session,
        input: 'A-1?',
      });

      expect(response.output).toBeInstanceOf(OrderSummary);
      expect(Object.assign({}, response.output)).toEqual({ orderId: 'A-1' });
      const format = (server.requests[0]!.body['output_config'] as Json)['format'] as Json;
      expect(format['type']).toBe('json_schema');
      expect((format['schema'] as Json)['additionalProperties']).toBe(false);
    });

    it("should force an output tool with structuredOutput: 'tool' and read its input as the answer", async () => {
      const { server, runtime } = await start({ structuredOutput: 'tool' });
      server.reply({ json: message([toolUse('final_answer', { orderId: 'A-1', note: 'ok' })]) });

      const response = await runtime.evaluate(orderDesk(log, OrderSummary), {
        session,
        input: 'A-1?',
      });

      expect(Object.assign({}, response.output)).toEqual({ orderId: 'A-1', note: 'ok' });
      const body = server.requests[0]!.body;
      expect((body['tools'] as Json[]).map((tool) => tool['name'])).toEqual([
        'lookup_order',
        'annotate',
        'final_answer',
      ]);
      expect(body['tool_choice']).toEqual({ type: 'any' });
      expect(body['output_config']).toBeUndefined();
      expect(session.slice(ToolInvoked).all()).toEqual([]);
    });

    it.each([
      [
        'without thinking: every tool offered, the output tool forced',
        {},
        { type: 'tool', name: 'final_answer' },
        ['lookup_order', 'annotate', 'final_answer'],
      ],
      [
        'with thinking (no forcing): the output tool alone offered',
        { thinking: { budgetTokens: 1_024 }, maxTokens: 2_048 },
        { type: 'auto' },
        ['final_answer'],
      ],
    ])(
      "should answer through the output tool when the tool choice is 'none', %s",
      async (_case, options, toolChoice, tools) => {
        const { server, runtime } = await start({ structuredOutput: 'tool', ...options });
        server.reply({ json: message([toolUse('final_answer', { orderId: 'A-1', note: 'ok' })]) });

        const response = await runtime.evaluate(orderDesk(log, OrderSummary), {
          session,
          input: 'A-1?',
          toolChoice: 'none',
        });

        expect(Object.assign({}, response.output)).toEqual({ orderId: 'A-1', note: 'ok' });
        const body = server.requests[0]!.body;
        expect(body['tool_choice']).toEqual(toolChoice);
        expect((body['tools'] as Json[]).map((tool) => tool['name'])).toEqual(tools);
      },
    );
  });

  describe('.request (answers that cannot be used)', () => {
    const failure = async (
      reply: Json,
      options: Record<string, unknown> = {},
    ): Promise<PromptEvaluationError> => {
      const { server, runtime } = await start(options);
      server.reply({ json: reply });
      return catchRejection(PromptEvaluationError, () =>
        runtime.evaluate(orderDesk(log), { session, input: 'A-1?' }),
      );
    };

    it('should never run a tool_use cut off by max_tokens, and name the limit and the option', async () => {
      const error = await failure(
        message([toolUse('lookup_order', { orderId: 'A' })], { stop_reason: 'max_tokens' }),
        { maxTokens: 50 },
      );

      expect(error.phase).toBe('response');
      expect(error.message).toContain(
        "max_tokens (50) while the model was writing a call of 'lookup_order'",
      );
      expect(error.message).toContain('AnthropicAdapterOptions.maxTokens');
      expect(log).toEqual([]);
    });

    it('should report a refusal with its category', async () => {
      const error = await failure(
        message([], {
          stop_reason: 'refusal',
          stop_details: { type: 'refusal', category: 'cyber', explanation: null },
        }),
      );

      expect(error.message).toContain('The model refused to answer (cyber)');
    });

    it('should report an exceeded context window', async () => {
      const error = await failure(
        message([text('partial')], { stop_reason: 'model_context_window_exceeded' }),
      );

      expect(error.message).toContain("no longer fits the model's context window");
    });

    it('should report an empty answer', async () => {
      const error = await failure(message([]));

      expect(error.message).toContain(
        'no answer and no tool call (content: empty, stop_reason end_turn)',
      );
    });
  });

  describe('configuration', () => {
    it('should reject native tools Anthropic does not run, before any request', async () => {
      const { runtime } = await start();
      const prompt = new Prompt({
        ns: 'test/anthropic',
        key: 'files',
        sections: [
          new MarkdownSection({
            key: 'files',
            title: 'Files',
            template: 'Search files.',
            tools: [
              new NativeTool({ type: 'file_search', config: { vector_store_ids: ['vs_1'] } }),
            ],
          }),
        ],
      });

      const error = await catchRejection(PromptValidationError, () =>
        runtime.evaluate(prompt, { session }),
      );

      expect(error.message).toContain(
        "type 'file_search', which the Anthropic Messages API does not run",
      );
    });

    it('should refuse a thinking budget that does not fit under maxTokens', () => {
      const error = catchError(
        ConfigurationError,
        () =>
          new AnthropicAdapter(undefined, {
            model: 'claude-test',
            thinking: { budgetTokens: 8000 },
          }),
      );

      expect(error.message).toContain('AnthropicAdapterOptions.thinking.budgetTokens');
    });

    it('should show its name and model, never its key, when printed or serialised', async () => {
      const { adapter } = await start();

      expect(JSON.stringify(adapter)).toBe('{"name":"anthropic","model":"claude-test"}');
      expect(inspect(adapter)).not.toContain(TEST_ANTHROPIC_KEY);
    });
  });
});
