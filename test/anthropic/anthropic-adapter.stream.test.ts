import { PromptEvaluationError } from '../../src/core/errors/prompt-evaluation-error.js';
import { AnthropicAdapter } from '../../src/anthropic/index.js';
import { MarkdownSection } from '../../src/prompt/markdown-section.js';
import { Prompt } from '../../src/prompt/prompt.js';
import type { ProviderStreamPart, ProviderTurn } from '../../src/provider/index.js';
import { Session } from '../../src/session/session.js';
import { NativeTool } from '../../src/tools/native-tool.js';
import { type AnthropicHarness, startAnthropic } from '../support/anthropic-harness.js';
import {
  message,
  messageBody,
  messageEvents,
  text,
  toolUse,
  usage,
} from '../support/anthropic-payloads.js';
import {
  type AnthropicRecording,
  chunkRecordings,
  type Json,
  replayPrompt,
} from '../support/anthropic-recordings.js';
import { collect, providerRequest, textOf } from '../support/openai-streams.js';
import { type CallLog, orderDesk } from '../support/order-desk.js';

/** The turn of a stream's parts (its last part). */
const turnOf = (parts: readonly ProviderStreamPart[]): ProviderTurn => {
  const last = parts.at(-1);
  if (last?.type !== 'turn')
    throw new Error(`the stream did not end with a turn part: ${JSON.stringify(last)}`);
  return last.turn;
};

/** What a turn means to the runtime, without the raw payload and provider items. */
const meaning = (turn: ProviderTurn): unknown => ({
  text: turn.text,
  toolCalls: turn.toolCalls,
  nativeCalls: turn.nativeCalls?.map((call) => [
    call.callId,
    call.name,
    call.arguments,
    call.result.success,
  ]),
  parsed: turn.parsed,
  usage: turn.usage?.toJSON(),
  finishReason: turn.finishReason,
});

/** A `web_search` server tool use and its (empty) result, as the API sends them. */
const webSearch = (id: string, query: string): Json[] => [
  { type: 'server_tool_use', id, name: 'web_search', input: { query } },
  { type: 'web_search_tool_result', tool_use_id: id, content: [] },
];

/** A prompt offering the `web_search` server tool only. */
const searchPrompt = (): Prompt =>
  new Prompt({
    ns: 'test/anthropic',
    key: 'paused-search',
    sections: [
      new MarkdownSection({
        key: 'search',
        title: 'Search',
        template: 'Search the web.',
        tools: [new NativeTool({ type: 'web_search' })],
      }),
    ],
  });

describe(AnthropicAdapter, () => {
  let harness: AnthropicHarness | undefined;

  afterEach(async () => {
    if (harness === undefined) return;
    const { server } = harness;
    harness = undefined;
    await server.close();
    expect(server.problems()).toEqual([]);
    expect(server.pending).toBe(0);
  });

  describe('.stream (every recorded stream)', () => {
    const recordings = chunkRecordings();

    it('should find every recorded stream', () => {
      expect(recordings).toHaveLength(6);
    });

    it.each(recordings.map((recording) => [recording.name, recording] as const))(
      'should stream %s into the turn request() reads from the same message',
      async (_name, recording: AnthropicRecording) => {
        const started = await startAnthropic();
        harness = started;
        const { server, adapter } = started;
        const events = recording.events!;
        const start = events.find((event) => event['type'] === 'message_start')!['message'] as Json;
        // The SDK's own accumulator (messages.stream) is the oracle for the whole message.
        server.reply({ events }, { events });
        const oracle = await server
          .client({ maxRetries: 0 })
          .messages.stream({
            model: 'claude-test',
            max_tokens: 1024,
            messages: [{ role: 'user', content: 'Hi' }],
          })
          .finalMessage();
        const whole: AnthropicRecording = {
          name: recording.name,
          exchanges: [{ request: null, status: 200, response: oracle as unknown as Json }],
        };
        const prompt = replayPrompt(whole, []);

        const streamed = await collect(adapter.stream(providerRequest(adapter, prompt)));
        server.reply({ json: oracle });
        const requested = await adapter.request(providerRequest(adapter, prompt)).then(
          (turn) => ({ turn, error: undefined }),
          (error: unknown) => ({ turn: undefined, error }),
        );

        expect(start['id']).toBe(oracle.id);
        if (oracle.stop_reason === 'refusal') {
          expect(streamed.error).toBeInstanceOf(PromptEvaluationError);
          expect(requested.error).toBeInstanceOf(PromptEvaluationError);
          expect((streamed.error as Error).message).toBe((requested.error as Error).message);
          return;
        }
        expect(streamed.error).toBeUndefined();
        const turn = turnOf(streamed.parts);
        expect(meaning(turn)).toEqual(meaning(requested.turn!));
        expect(turn.providerItems).toEqual(requested.turn!.providerItems);
        // Text deltas join to the text; each call's argument deltas join to the JSON of its input.
        expect(textOf(streamed.parts)).toBe(turn.text ?? '');
        const starts = streamed.parts.filter((part) => part.type === 'tool-call-start');
        expect(starts.map((part) => [part.callId, part.name])).toEqual(
          (turn.toolCalls ?? []).map((call) => [call.callId, call.name]),
        );
        for (const call of turn.toolCalls ?? []) {
          const pieces = streamed.parts
            .filter((part) => part.type === 'tool-arguments-delta' && part.callId === call.callId)
            .map((part) => (part.type === 'tool-arguments-delta' ? part.delta : ''))
            .join('');
          expect(JSON.parse(pieces === '' ? '{}' : pieces)).toEqual(call.arguments);
        }
      },
    );
  });

  describe('.stream (through the runtime)', () => {
    it('should stream a tool loop: deltas, the call, its result, the answer', async () => {
      const started = await startAnthropic();
      harness = started;
      const log: CallLog = [];
      started.server.reply(
        {
          events: messageEvents(
            message([text('Checking.'), toolUse('lookup_order', { orderId: 'A-1' }, 'toolu_01s')]),
          ),
        },
        { events: messageEvents(messageBody({ text: 'A-1 has shipped.' })) },
      );

      const parts = [];
      for await (const part of started.runtime.stream(orderDesk(log), {
        session: new Session(),
        input: 'A-1?',
      })) {
        parts.push(part);
      }

      expect(log).toEqual([['lookup_order', expect.objectContaining({ orderId: 'A-1' })]]);
      const kinds = parts.map((part) => part.type);
      expect(kinds).toContain('tool-call-start');
      expect(kinds).toContain('tool-call-end');
      const answer = parts.at(-1);
      expect(answer?.type === 'answer' ? answer.response.text : undefined).toBe('A-1 has shipped.');
      expect(started.server.requests.map((request) => request.body['stream'])).toEqual([
        true,
        true,
      ]);
    });

    it('should read thinking deltas as reasoning and carry the signed block back', async () => {
      const started = await startAnthropic({ maxTokens: 4096, thinking: { budgetTokens: 1024 } });
      harness = started;
      const { server, adapter } = started;
      const events: Json[] = [
        { type: 'message_start', message: message([], { stop_reason: null }) },
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'thinking_delta', thinking: 'Think ' },
        },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'thinking_delta', thinking: 'twice.' },
        },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'signature_delta', signature: 'sig-1' },
        },
        { type: 'content_block_stop', index: 0 },
        { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Done.' } },
        { type: 'content_block_stop', index: 1 },
        { type: 'some_future_event', detail: 1 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: 9 },
        },
        { type: 'message_stop' },
      ];
      server.reply({ events });

      const { parts, error } = await collect(
        adapter.stream(providerRequest(adapter, orderDesk([]))),
      );

      expect(error).toBeUndefined();
      expect(
        parts.flatMap((part) => (part.type === 'reasoning-delta' ? [part.delta] : [])),
      ).toEqual(['Think ', 'twice.']);
      const turn = turnOf(parts);
      expect(turn.providerItems).toEqual([
        { type: 'thinking', thinking: 'Think twice.', signature: 'sig-1' },
        { type: 'text', text: 'Done.' },
      ]);
      expect(turn.usage?.toJSON()).toEqual({
        inputTokens: 100,
        outputTokens: 9,
        cachedTokens: 0,
        cacheWriteTokens: 0,
        totalTokens: 109,
      });
    });
  });

  describe('.stream (a paused turn)', () => {
    it('should continue a streamed pause_turn with a second stream and give one turn', async () => {
      const started = await startAnthropic();
      harness = started;
      const { server, adapter } = started;
      const first = message([text('Searching the web.'), ...webSearch('srvtoolu_01p1', 'acme')], {
        stop_reason: 'pause_turn',
        usage: usage(40, 12),
      });
      const second = message(
        [...webSearch('srvtoolu_01p2', 'acme anvils'), text('Acme makes anvils.')],
        { usage: { ...usage(70, 9, 5), cache_creation_input_tokens: 8 } },
      );
      server.reply({ events: messageEvents(first, 5) }, { events: messageEvents(second, 5) });

      // Each part with the number of requests the server had when the part arrived.
      const parts: [ProviderStreamPart, number][] = [];
      for await (const part of adapter.stream(providerRequest(adapter, searchPrompt()))) {
        parts.push([part, server.requests.length]);
      }
      server.reply({ json: first }, { json: second });
      const requested = await adapter.request(providerRequest(adapter, searchPrompt()));

      // The first response's deltas arrive before the continuation is sent, the second's after.
      const deltas = (requests: number): string =>
        textOf(parts.filter(([, seen]) => seen === requests).map(([part]) => part));
      expect(deltas(1)).toBe('Searching the web.');
      expect(deltas(2)).toBe('Acme makes anvils.');
      const streamed = parts.map(([part]) => part);
      expect(streamed.filter((part) => part.type === 'turn')).toHaveLength(1);
      const turn = turnOf(streamed);
      // One turn of both responses: text, native calls, content in order, usage of both requests.
      expect(turn.text).toBe('Searching the web.Acme makes anvils.');
      expect(turn.nativeCalls?.map((call) => [call.callId, call.name, call.arguments])).toEqual([
        ['srvtoolu_01p1', 'web_search', { query: 'acme' }],
        ['srvtoolu_01p2', 'web_search', { query: 'acme anvils' }],
      ]);
      expect(turn.providerItems).toEqual([
        ...(first['content'] as Json[]),
        ...(second['content'] as Json[]),
      ]);
      expect(turn.usage?.toJSON()).toEqual({
        inputTokens: 40 + 70 + 5 + 8,
        outputTokens: 12 + 9,
        cachedTokens: 5,
        cacheWriteTokens: 8,
        totalTokens: 40 + 70 + 5 + 8 + 12 + 9,
      });
      // The continuation: the same request, streamed, with the first response's content as an assistant message.
      const [opening, continued] = server.requests.map((request) => request.body);
      expect([opening!['stream'], continued!['stream']]).toEqual([true, true]);
      expect(continued!['messages']).toEqual([
        ...(opening!['messages'] as Json[]),
        { role: 'assistant', content: first['content'] },
      ]);
      expect(Object.assign({}, continued, { messages: undefined })).toEqual(
        Object.assign({}, opening, { messages: undefined }),
      );
      // stream() and request() agree on the same two answers, continuation included.
      expect(meaning(turn)).toEqual(meaning(requested));
      expect(turn.providerItems).toEqual(requested.providerItems);
      expect(server.requests[3]!.body['messages']).toEqual(continued!['messages']);
    });
  });
});
