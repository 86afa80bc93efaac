import { PromptEvaluationError } from '../../src/core/errors/prompt-evaluation-error.js';
import { PromptRendered } from '../../src/runtime/events/prompt-rendered.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import { OpenAIAdapter } from '../../src/openai/index.js';
import { Session } from '../../src/session/session.js';
import { catchRejection } from '../support/catch-error.js';
import { type OpenAIHarness, startOpenAI } from '../support/openai-harness.js';
import { functionCall, message, reasoning, responseBody } from '../support/openai-payloads.js';
import { type CallLog, OrderSummary, orderDesk } from '../support/order-desk.js';

type Body = Record<string, unknown>;
const lastInput = (harness: OpenAIHarness): Body[] =>
  (harness.server.requests.at(-1)?.body['input'] ?? []) as Body[];

describe(OpenAIAdapter, () => {
  let harness: OpenAIHarness;
  let log: CallLog;
  let session: Session;

  beforeEach(async () => {
    harness = await startOpenAI({ modelSettings: { maxOutputTokens: 64 } });
    log = [];
    session = new Session();
  });
  afterEach(async () => {
    expect(harness.server.problems()).toEqual([]);
    expect(harness.server.pending).toBe(0);
    await harness.server.close();
  });

  const evaluate = () => harness.runtime.evaluate(orderDesk(log), { session, input: 'A-1?' });
  const failure = () => catchRejection(PromptEvaluationError, evaluate);

  describe('.request (responses that are not simply completed)', () => {
    it('should never run arguments cut off by max_output_tokens', async () => {
      harness.server.reply({
        json: responseBody(
          [{ ...functionCall('lookup_order', '{"orderId":"A-'), status: 'incomplete' }],
          { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
        ),
      });

      const error = await failure();

      expect(error.phase).toBe('response');
      expect(error.message).toContain(
        "cut off (max_output_tokens) while the model was writing the arguments of 'lookup_order'",
      );
      expect(error.message).toContain('maxOutputTokens (now 64)');
      expect(log).toEqual([]);
      expect(session.slice(ToolInvoked).all()).toEqual([]);
      expect(session.slice(PromptRendered).all()).toHaveLength(1);
    });

    it('should treat unparseable arguments in an incomplete response as cut off even without an item status', async () => {
      harness.server.reply({
        json: responseBody([functionCall('lookup_order', '{"orderId":"A-1"')], {
          status: 'incomplete',
          incomplete_details: { reason: 'max_output_tokens' },
        }),
      });

      expect((await failure()).message).toContain("arguments of 'lookup_order'");
      expect(log).toEqual([]);
    });

    it('should run complete calls of an incomplete response and let the model continue', async () => {
      harness.server.reply(
        {
          json: responseBody(
            [functionCall('lookup_order', { orderId: 'A-1', includeItems: null })],
            {
              status: 'incomplete',
              incomplete_details: { reason: 'max_output_tokens' },
            },
          ),
        },
        { json: responseBody([message('A-1 shipped.')]) },
      );

      const response = await evaluate();

      expect(response.text).toBe('A-1 shipped.');
      expect(log.map(([name]) => name)).toEqual(['lookup_order']);
    });

    it('should report an answer cut off by max_output_tokens', async () => {
      harness.server.reply({
        json: responseBody([reasoning(), message('A-1 has')], {
          status: 'incomplete',
          incomplete_details: { reason: 'max_output_tokens' },
        }),
      });

      expect((await failure()).message).toContain(
        'cut off (max_output_tokens) before the answer was complete',
      );
    });

    it('should report a response stopped by the content filter', async () => {
      harness.server.reply({
        json: responseBody([message('')], {
          status: 'incomplete',
          incomplete_details: { reason: 'content_filter' },
        }),
      });

      expect((await failure()).message).toContain('content filter stopped the response');
    });

    it('should report a failed response with its code and message, without retrying it', async () => {
      harness.server.reply({
        json: responseBody([], {
          status: 'failed',
          error: { code: 'invalid_prompt', message: 'The prompt was flagged.' },
        }),
      });

      const error = await failure();

      expect(error.phase).toBe('response');
      expect(error.message).toContain('(failed, invalid_prompt): The prompt was flagged.');
      expect(harness.server.requests).toHaveLength(1);
    });

    it('should retry a response that failed with server_error', async () => {
      harness.server.reply(
        {
          json: responseBody([], {
            status: 'failed',
            error: { code: 'server_error', message: 'Something went wrong.' },
          }),
        },
        { json: responseBody([message('Recovered.')]) },
      );

      expect((await evaluate()).text).toBe('Recovered.');
      expect(harness.server.requests).toHaveLength(2);
    });

    it('should report a refusal with the model text', async () => {
      harness.server.reply({
        json: responseBody([
          {
            ...message(''),
            content: [{ type: 'refusal', refusal: "I can't help with that." }],
          },
        ]),
      });

      expect((await failure()).message).toContain(
        `The model refused to answer: "I can't help with that."`,
      );
    });

    it.each([
      ['only reasoning', [reasoning()], 'output: reasoning'],
      ['nothing', [], 'output: empty'],
    ])('should report an output with %s as empty', async (_what, output, expected) => {
      harness.server.reply({ json: responseBody(output) });

      const error = await failure();

      expect(error.message).toContain('returned no answer and no tool call');
      expect(error.message).toContain(expected);
    });

    it.each([
      ['cancelled', 'was cancelled'],
      ['queued', 'background responses are not supported'],
    ])('should report a %s response', async (status, expected) => {
      harness.server.reply({ json: responseBody([], { status }) });

      expect((await failure()).message).toContain(expected);
    });

    it('should report a structured answer that does not match the output class', async () => {
      harness.server.reply({ json: responseBody([message('{"orderId":7,"note":null}')]) });

      const error = await catchRejection(PromptEvaluationError, () =>
        harness.runtime.evaluate(orderDesk(log, OrderSummary), { session }),
      );

      expect(error.phase).toBe('response');
      expect(error.message).toContain('orderId');
    });
  });

  describe('.request (calls the model can recover from)', () => {
    it('should answer a call of an unknown tool with the list of tools, and go on', async () => {
      const call = functionCall('cancel_order', { orderId: 'A-1' });
      harness.server.reply(
        { json: responseBody([call]) },
        { json: responseBody([message('I cannot cancel orders.')]) },
      );

      const response = await evaluate();

      expect(response.text).toBe('I cannot cancel orders.');
      expect(lastInput(harness).at(-1)).toEqual({
        type: 'function_call_output',
        call_id: call['call_id'],
        output: "Unknown tool 'cancel_order'. Available tools: lookup_order, annotate.",
      });
      expect(
        session
          .slice(ToolInvoked)
          .all()
          .map((event) => event.outcome),
      ).toEqual(['failure']);
    });

    it('should answer arguments that fail validation with the problems, and run the corrected call', async () => {
      const bad = functionCall('lookup_order', { orderId: 'A', includeItems: 'yes' });
      harness.server.reply(
        { json: responseBody([bad]) },
        {
          json: responseBody([
            functionCall('lookup_order', { orderId: 'A-1', includeItems: true }),
          ]),
        },
        { json: responseBody([message('A-1 shipped.')]) },
      );

      const response = await evaluate();

      expect(response.text).toBe('A-1 shipped.');
      const answer = (harness.server.requests[1]?.body['input'] as Body[]).at(-1);
      expect(answer?.['call_id']).toBe(bad['call_id']);
      expect(answer?.['output']).toMatch(/^Tool validation failed: .*orderId.*includeItems/s);
      expect(log.map(([name]) => name)).toEqual(['lookup_order']);
      expect(
        session
          .slice(ToolInvoked)
          .all()
          .map((event) => event.outcome),
      ).toEqual(['failure', 'success']);
    });

    it('should answer arguments that are not JSON in a completed response as a validation failure', async () => {
      const bad = functionCall('lookup_order', '{"orderId": A-1}');
      harness.server.reply(
        { json: responseBody([bad]) },
        { json: responseBody([message('Sorry.')]) },
      );

      await evaluate();

      const answer = (harness.server.requests[1]?.body['input'] as Body[]).at(-1);
      expect(answer?.['output']).toMatch(/^Tool validation failed: /);
      expect(log).toEqual([]);
    });
  });
});
