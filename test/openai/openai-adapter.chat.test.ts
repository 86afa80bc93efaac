import { PromptEvaluationError } from '../../src/core/errors/prompt-evaluation-error.js';
import { PromptValidationError } from '../../src/core/errors/prompt-validation-error.js';
import { TokenUsage } from '../../src/provider/token-usage.js';
import { OpenAIAdapter, ShellCommandOutput, ShellTool } from '../../src/openai/index.js';
import { MarkdownSection } from '../../src/prompt/markdown-section.js';
import { Prompt } from '../../src/prompt/prompt.js';
import { toJsonSchema } from '../../src/schema/to-json-schema.js';
import { Session } from '../../src/session/session.js';
import { NativeTool } from '../../src/tools/native-tool.js';
import { ToolResult } from '../../src/tools/tool-result.js';
import { catchRejection } from '../support/catch-error.js';
import { type OpenAIHarness, startOpenAI } from '../support/openai-harness.js';
import { chatCompletion } from '../support/openai-payloads.js';
import {
  AnnotateParams,
  type CallLog,
  LookupOrderParams,
  OrderSummary,
  orderDesk,
} from '../support/order-desk.js';

type Body = Record<string, unknown>;
const messages = (body: Body | undefined): Body[] => (body?.['messages'] ?? []) as Body[];

describe(OpenAIAdapter, () => {
  let harness: OpenAIHarness;
  let log: CallLog;

  beforeEach(async () => {
    harness = await startOpenAI({ api: 'chat' });
    log = [];
  });
  afterEach(async () => {
    expect(harness.server.problems()).toEqual([]);
    expect(harness.server.pending).toBe(0);
    await harness.server.close();
  });

  describe('.request (Chat Completions)', () => {
    it('should send a system message, the user input and function tools with strict explicit', async () => {
      harness.server.reply({ json: chatCompletion({ content: 'Which order?' }) });
      const prompt = orderDesk(log);

      const response = await harness.runtime.evaluate(prompt, { input: 'Where is my order?' });

      expect(response.text).toBe('Which order?');
      const body = harness.server.requests[0]?.body;
      expect(harness.server.requests[0]?.path).toBe('/v1/chat/completions');
      expect(messages(body)).toEqual([
        { role: 'system', content: prompt.render().text },
        { role: 'user', content: 'Where is my order?' },
      ]);
      expect(body?.['tools']).toEqual([
        {
          type: 'function',
          function: {
            name: 'lookup_order',
            description: 'Look an order up by id.',
            parameters: toJsonSchema(LookupOrderParams, 'openai-strict').schema,
            strict: true,
          },
        },
        {
          type: 'function',
          function: {
            name: 'annotate',
            description: 'Attach a note to the conversation.',
            parameters: toJsonSchema(AnnotateParams, 'standard').schema,
            strict: false,
          },
        },
      ]);
      expect(body).toMatchObject({ tool_choice: 'auto', parallel_tool_calls: true });
    });

    it('should send back the tool calls and one tool message per call, adding up usage', async () => {
      harness.server.reply(
        {
          json: chatCompletion({
            content: 'Looking both up.',
            toolCalls: [
              { id: 'call_1', name: 'lookup_order', args: { orderId: 'A-1', includeItems: null } },
              { id: 'call_2', name: 'lookup_order', args: { orderId: 'A-2', includeItems: true } },
            ],
            promptTokens: 100,
            completionTokens: 30,
            reasoningTokens: 12,
          }),
        },
        {
          json: chatCompletion({
            content: 'Both shipped.',
            promptTokens: 180,
            completionTokens: 8,
            reasoningTokens: 0,
          }),
        },
      );

      const response = await harness.runtime.evaluate(orderDesk(log), { input: 'A-1 and A-2?' });

      expect(response.text).toBe('Both shipped.');
      expect(response.usage).toEqual(
        // completion_tokens_details.reasoning_tokens of both completions, summed.
        new TokenUsage({
          inputTokens: 280,
          outputTokens: 38,
          cachedTokens: 0,
          reasoningTokens: 12,
        }),
      );
      expect(log).toEqual([
        ['lookup_order', Object.assign(new LookupOrderParams(), { orderId: 'A-1' })],
        [
          'lookup_order',
          Object.assign(new LookupOrderParams(), { orderId: 'A-2', includeItems: true }),
        ],
      ]);
      expect(messages(harness.server.requests[1]?.body).slice(2)).toEqual([
        {
          role: 'assistant',
          content: 'Looking both up.',
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: {
                name: 'lookup_order',
                arguments: '{"orderId":"A-1","includeItems":null}',
              },
            },
            {
              id: 'call_2',
              type: 'function',
              function: {
                name: 'lookup_order',
                arguments: '{"orderId":"A-2","includeItems":true}',
              },
            },
          ],
        },
        {
          role: 'tool',
          tool_call_id: 'call_1',
          content: 'Found it.\n\n{"orderId":"A-1","status":"shipped"}',
        },
        {
          role: 'tool',
          tool_call_id: 'call_2',
          content: 'Found it.\n\n{"orderId":"A-2","status":"shipped"}',
        },
      ]);
    });

    it('should force a named function in the chat form, then return to auto', async () => {
      harness.server.reply(
        {
          json: chatCompletion({
            toolCalls: [{ name: 'lookup_order', args: { orderId: 'A-1', includeItems: null } }],
          }),
        },
        { json: chatCompletion({ content: 'Shipped.' }) },
      );

      await harness.runtime.evaluate(orderDesk(log), { toolChoice: { name: 'lookup_order' } });

      expect(harness.server.requests.map((request) => request.body['tool_choice'])).toEqual([
        { type: 'function', function: { name: 'lookup_order' } },
        'auto',
      ]);
    });

    it('should ask for a nested json_schema response format and map the model settings', async () => {
      await harness.server.close();
      harness = await startOpenAI({
        api: 'chat',
        instructionsRole: 'developer',
        modelSettings: {
          maxOutputTokens: 500,
          reasoning: { effort: 'minimal' },
          verbosity: 'low',
          temperature: 0,
        },
      });
      harness.server.reply({ json: chatCompletion({ content: '{"orderId":"A-9","note":null}' }) });

      const response = await harness.runtime.evaluate(orderDesk(log, OrderSummary));

      expect(response.output).toEqual(Object.assign(new OrderSummary(), { orderId: 'A-9' }));
      expect((response.output as OrderSummary).note).toBeUndefined();
      const body = harness.server.requests[0]?.body;
      expect(messages(body)[0]?.['role']).toBe('developer');
      expect(body).toMatchObject({
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'order-desk',
            schema: toJsonSchema(OrderSummary, 'openai-strict').schema,
            strict: true,
          },
        },
        max_completion_tokens: 500,
        reasoning_effort: 'minimal',
        verbosity: 'low',
        temperature: 0,
      });
    });

    it('should leave tool_choice and parallel_tool_calls out when no tool is offered', async () => {
      harness.server.reply({ json: chatCompletion({ content: 'Hello.' }) });
      const prompt = new Prompt({
        ns: 'test/openai',
        key: 'plain',
        sections: [new MarkdownSection({ key: 'hi', title: 'Hi', template: 'Say hello.' })],
      });

      await harness.runtime.evaluate(prompt);

      const body = harness.server.requests[0]?.body;
      expect(body).not.toHaveProperty('tools');
      expect(body).not.toHaveProperty('tool_choice');
      expect(body).not.toHaveProperty('parallel_tool_calls');
    });

    it('should offer a ShellTool as a plain function', async () => {
      const shell = new ShellTool({
        handler: (params) => ToolResult.ok(params.commands.map(() => ShellCommandOutput.of('ok'))),
      });
      harness.server.reply({ json: chatCompletion({ content: 'Nothing to run.' }) });
      const prompt = new Prompt({
        ns: 'test/openai',
        key: 'shell',
        sections: [
          new MarkdownSection({
            key: 'sh',
            title: 'Shell',
            template: 'Run things.',
            tools: [shell],
          }),
        ],
      });

      await harness.runtime.evaluate(prompt);

      const tools = harness.server.requests[0]?.body['tools'] as Body[];
      expect(tools[0]).toMatchObject({
        type: 'function',
        function: { name: 'shell', strict: true },
      });
    });
  });

  describe('.request (Chat Completions answers that cannot be used)', () => {
    const failure = () =>
      catchRejection(PromptEvaluationError, () =>
        harness.runtime.evaluate(orderDesk(log), { session: new Session() }),
      );

    it('should never run tool arguments cut off by the token limit', async () => {
      harness.server.reply({
        json: chatCompletion({
          toolCalls: [{ name: 'lookup_order', args: '{"orderId":"A-' }],
          finishReason: 'length',
        }),
      });

      const error = await failure();

      expect(error.phase).toBe('response');
      expect(error.message).toContain("writing the arguments of 'lookup_order'; nothing was run");
      expect(log).toEqual([]);
    });

    it.each([
      [
        'an answer cut off',
        { content: 'The answer is', finishReason: 'length' },
        'cut off by the token limit before the answer',
      ],
      [
        'a filtered completion',
        { content: null, finishReason: 'content_filter' },
        'content filter stopped the completion',
      ],
      [
        'a refusal',
        { content: null, refusal: 'I cannot help with that.' },
        'The model refused to answer: "I cannot help with that."',
      ],
      [
        'an empty answer',
        { content: '' },
        'returned no answer and no tool call (finish_reason: stop)',
      ],
    ])('should report %s', async (_what, choice, expected) => {
      harness.server.reply({ json: chatCompletion(choice) });

      expect((await failure()).message).toContain(expected);
    });
  });

  describe('.validate', () => {
    it('should reject a native tool on Chat Completions before any request', async () => {
      const prompt = new Prompt({
        ns: 'test/openai',
        key: 'native',
        sections: [
          new MarkdownSection({
            key: 'web',
            title: 'Web',
            template: 'Search.',
            tools: [new NativeTool({ type: 'web_search' })],
          }),
        ],
      });

      const error = await catchRejection(PromptValidationError, () =>
        harness.runtime.evaluate(prompt),
      );

      expect(error.message).toContain(
        "Chat Completions cannot offer the provider-executed tool 'web_search'",
      );
      expect(error.message).toContain("Use api: 'responses'");
      expect(harness.server.requests).toHaveLength(0);
    });
  });
});
