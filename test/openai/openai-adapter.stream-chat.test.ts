import { PromptEvaluationError } from '../../src/core/errors/prompt-evaluation-error.js';
import { OpenAIAdapter } from '../../src/openai/index.js';
import type { ProviderStreamPart } from '../../src/provider/provider-stream-part.js';
import { catchRejection } from '../support/catch-error.js';
import { type OpenAIHarness, startOpenAI } from '../support/openai-harness.js';
import { chatCompletion } from '../support/openai-payloads.js';
import {
  callsOf,
  collect,
  comparable,
  providerRequest,
  textOf,
  turnOf,
} from '../support/openai-streams.js';
import { orderDesk } from '../support/order-desk.js';

type Json = Record<string, unknown>;

/** A `chat.completion.chunk` of the first choice, in the shape OpenAI streams. */
const chunk = (delta: Json, finishReason: string | null = null): string =>
  JSON.stringify({
    id: 'chatcmpl-stream',
    object: 'chat.completion.chunk',
    created: 1_767_225_600,
    model: 'gpt-test',
    system_fingerprint: 'fp_test',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    usage: null,
  });

/** The last chunk `stream_options.include_usage` asks for: no choice, the usage. */
const usageChunk = (promptTokens: number, completionTokens: number): string =>
  JSON.stringify({
    id: 'chatcmpl-stream',
    object: 'chat.completion.chunk',
    created: 1_767_225_600,
    model: 'gpt-test',
    system_fingerprint: 'fp_test',
    choices: [],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: 0 },
    },
  });

const piece = (index: number, fields: { id?: string; name?: string; args?: string }): Json => {
  const call: Json = { index };
  if (fields.id !== undefined) call['id'] = fields.id;
  if (fields.id !== undefined) call['type'] = 'function';
  const fn: Json = {};
  if (fields.name !== undefined) fn['name'] = fields.name;
  if (fields.args !== undefined) fn['arguments'] = fields.args;
  call['function'] = fn;
  return { tool_calls: [call] };
};

describe(OpenAIAdapter, () => {
  let harness: OpenAIHarness;

  beforeEach(async () => {
    harness = await startOpenAI({ api: 'chat' });
  });
  afterEach(async () => {
    expect(harness.server.problems()).toEqual([]);
    expect(harness.server.pending).toBe(0);
    await harness.server.close();
  });

  const request = () => providerRequest(harness.adapter, orderDesk([]));

  describe('.stream (Chat Completions)', () => {
    it('should stream the content as text, ask for usage, and end with the turn request() reads', async () => {
      harness.server.reply(
        {
          sse: [
            chunk({ role: 'assistant', content: '', refusal: null }),
            chunk({ content: 'A-1 has ' }),
            chunk({ content: 'shipped.' }),
            chunk({}, 'stop'),
            usageChunk(31, 4),
          ],
        },
        {
          json: chatCompletion({
            content: 'A-1 has shipped.',
            promptTokens: 31,
            completionTokens: 4,
          }),
        },
      );

      const { parts, error } = await collect(harness.adapter.stream(request()));
      const whole = await harness.adapter.request(request());

      expect(error).toBeUndefined();
      expect(parts.slice(0, -1)).toEqual([
        { type: 'text-delta', delta: 'A-1 has ' },
        { type: 'text-delta', delta: 'shipped.' },
      ]);
      const turn = turnOf(parts);
      expect(comparable(turn)).toEqual(comparable(whole));
      expect([turn.text, turn.finishReason, turn.usage?.inputTokens]).toEqual([
        'A-1 has shipped.',
        'stop',
        31,
      ]);
      expect(harness.server.requests[0]?.body).toMatchObject({
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(harness.server.requests[0]?.path).toBe('/v1/chat/completions');
    });

    it('should gather two interleaved parallel tool calls by index, each start before its arguments', async () => {
      const lookup = '{"orderId":"A-1","includeItems":null}';
      const annotate = '{"note":"late","extra":{}}';
      harness.server.reply(
        {
          sse: [
            chunk({
              role: 'assistant',
              content: null,
              ...piece(0, { id: 'call_a', name: 'lookup_order', args: '' }),
            }),
            chunk(piece(1, { id: 'call_b', name: 'annotate', args: annotate.slice(0, 5) })),
            chunk(piece(0, { args: lookup.slice(0, 11) })),
            chunk(piece(1, { args: annotate.slice(5) })),
            chunk(piece(0, { args: lookup.slice(11) })),
            chunk({}, 'tool_calls'),
            usageChunk(40, 22),
          ],
        },
        {
          json: chatCompletion({
            toolCalls: [
              { id: 'call_a', name: 'lookup_order', args: lookup },
              { id: 'call_b', name: 'annotate', args: annotate },
            ],
            promptTokens: 40,
            completionTokens: 22,
          }),
        },
      );

      const { parts } = await collect(harness.adapter.stream(request()));
      const whole = await harness.adapter.request(request());

      expect(parts.slice(0, -1)).toEqual<ProviderStreamPart[]>([
        { type: 'tool-call-start', callId: 'call_a', name: 'lookup_order' },
        { type: 'tool-call-start', callId: 'call_b', name: 'annotate' },
        { type: 'tool-arguments-delta', callId: 'call_b', delta: annotate.slice(0, 5) },
        { type: 'tool-arguments-delta', callId: 'call_a', delta: lookup.slice(0, 11) },
        { type: 'tool-arguments-delta', callId: 'call_b', delta: annotate.slice(5) },
        { type: 'tool-arguments-delta', callId: 'call_a', delta: lookup.slice(11) },
      ]);
      const turn = turnOf(parts);
      expect(comparable(turn)).toEqual(comparable(whole));
      expect(turn.finishReason).toBe('tool_calls');
      expect(callsOf(parts)).toEqual(
        (turn.toolCalls ?? []).map((call) => [call.callId, call.name, call.arguments]),
      );
      expect(turn.text).toBeNull();
    });

    it('should throw a completion cut off by the token limit as request() does, after its text', async () => {
      harness.server.reply(
        {
          sse: [
            chunk({ role: 'assistant', content: 'Partial ans' }),
            chunk({ content: 'wer' }, 'length'),
            usageChunk(10, 3),
          ],
        },
        { json: chatCompletion({ content: 'Partial answer', finishReason: 'length' }) },
      );

      const streamed = await collect(harness.adapter.stream(request()));
      const whole = await catchRejection(PromptEvaluationError, () =>
        harness.adapter.request(request()),
      );

      expect(textOf(streamed.parts)).toBe('Partial answer');
      expect(streamed.parts.some((part) => part.type === 'turn')).toBe(false);
      const error = streamed.error as PromptEvaluationError;
      expect([error.name, error.phase, error.message]).toEqual([
        whole.name,
        whole.phase,
        whole.message,
      ]);
      expect(whole.message).toContain('cut off by the token limit');
    });

    it('should throw a stream that ends without a finish reason once text was delivered, without a second request', async () => {
      harness.server.reply({ sse: [chunk({ role: 'assistant', content: 'Half' })] });

      const { parts, error } = await collect(harness.adapter.stream(request()));

      expect(parts).toEqual([{ type: 'text-delta', delta: 'Half' }]);
      expect(PromptEvaluationError.is(error)).toBe(true);
      expect((error as PromptEvaluationError).phase).toBe('response');
      expect((error as PromptEvaluationError).message).toContain(
        'Chat Completions stream ended after 1 chunk(s) without a finish_reason',
      );
      expect(harness.server.requests).toHaveLength(1);
    });

    it('should throw an error chunk sent mid-stream, naming it, after the text before it', async () => {
      harness.server.reply({
        sse: [
          chunk({ role: 'assistant', content: 'Start' }),
          JSON.stringify({
            error: { message: 'The model overloaded.', type: 'server_error', code: 'overloaded' },
          }),
        ],
      });

      const { parts, error } = await collect(harness.adapter.stream(request()));

      expect(parts).toEqual([{ type: 'text-delta', delta: 'Start' }]);
      const thrown = error as PromptEvaluationError;
      expect(thrown.phase).toBe('request');
      expect(thrown.message).toContain(
        'The OpenAI Chat Completions stream broke off after part of the answer was delivered (API error overloaded: The model overloaded.)',
      );
      expect(harness.server.requests).toHaveLength(1);
    });
  });
});
