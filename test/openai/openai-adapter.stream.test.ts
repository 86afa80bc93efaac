import { PromptEvaluationError } from '../../src/core/errors/prompt-evaluation-error.js';
import { OpenAIAdapter } from '../../src/openai/index.js';
import type { ProviderTurn } from '../../src/provider/conversation.js';
import type { ProviderStreamPart } from '../../src/provider/provider-stream-part.js';
import { catchRejection } from '../support/catch-error.js';
import { type OpenAIHarness, startOpenAI } from '../support/openai-harness.js';
import { functionCall, message, responseBody } from '../support/openai-payloads.js';
import {
  asRecording,
  callsOf,
  collect,
  comparable,
  loadStreamRecordings,
  providerRequest,
  reasoningOf,
  type StreamRecording,
  textOf,
  turnOf,
} from '../support/openai-streams.js';
import { orderDesk } from '../support/order-desk.js';
import { replayPrompt, type Json, type ReplayLog } from '../support/recording-replay.js';

/** What `request()` gives for an answer: its turn, or the error it throws. */
async function settle(
  promise: Promise<ProviderTurn>,
): Promise<{ turn?: ProviderTurn; error?: unknown }> {
  try {
    return { turn: await promise };
  } catch (error) {
    return { error };
  }
}

const describeError = (error: unknown) => {
  const known = error as PromptEvaluationError;
  return { name: known.name, phase: known.phase, message: known.message };
};

/** The synthetic recording whose text deltas do not add up to its text (see the fixtures README). */
const inconsistentText = 'openai-shell-container.1.chunks.txt';

const parse = (event: unknown): Json =>
  JSON.parse(typeof event === 'string' ? event : (event as { data: string }).data) as Json;

/** The recorded `response.output_text.delta` texts, joined. */
const recordedDeltas = (events: readonly unknown[]): string =>
  events
    .map(parse)
    .filter((event) => event['type'] === 'response.output_text.delta')
    .map((event) => String(event['delta']))
    .join('');

/** The `item` of each recorded `response.output_item.added` event that is a function call. */
const addedFunctionCalls = (events: readonly unknown[]): Json[] =>
  events
    .map(parse)
    .filter((event) => event['type'] === 'response.output_item.added')
    .map((event) => event['item'] as Json)
    .filter((item) => item['type'] === 'function_call');

describe(OpenAIAdapter, () => {
  let harness: OpenAIHarness | undefined;

  afterEach(async () => {
    if (harness === undefined) return;
    const { server } = harness;
    harness = undefined;
    expect(server.problems()).toEqual([]);
    expect(server.pending).toBe(0);
    await server.close();
  });

  describe('.stream (Responses API, replaying recorded streams)', () => {
    const recordings = loadStreamRecordings();

    it('should find every recorded stream', () => {
      expect(recordings.map((recording) => [recording.name, recording.streams.length])).toEqual([
        ['vercel-ai/openai-responses/openai-apply-patch-tool-delete.1.chunks.txt', 1],
        ['vercel-ai/openai-responses/openai-apply-patch-tool.1.chunks.txt', 1],
        ['vercel-ai/openai-responses/openai-client-tool-search.2.chunks.txt', 1],
        ['vercel-ai/openai-responses/openai-code-interpreter-tool.1.chunks.txt', 1],
        ['vercel-ai/openai-responses/openai-custom-tool.1.chunks.txt', 1],
        ['vercel-ai/openai-responses/openai-error.1.chunks.txt', 1],
        ['vercel-ai/openai-responses/openai-file-search-tool.1.chunks.txt', 1],
        ['vercel-ai/openai-responses/openai-local-shell-tool.1.chunks.txt', 1],
        ['vercel-ai/openai-responses/openai-mcp-tool-approval.4.chunks.txt', 1],
        ['vercel-ai/openai-responses/openai-reasoning-encrypted-content.1.chunks.txt', 4],
        ['vercel-ai/openai-responses/openai-shell-container.1.chunks.txt', 1],
        ['vercel-ai/openai-responses/openai-shell-tool.1.chunks.txt', 2],
        ['vercel-ai/openai-responses/openai-web-search-tool.1.chunks.txt', 1],
        ['pydantic-ai/openai-responses/test_openai_responses_stream.yaml', 2],
      ]);
    });

    it.each(recordings.map((recording) => [recording.name, recording] as const))(
      'should stream %s to the turn request() reads from the same response',
      async (_name, recording: StreamRecording) => {
        harness = await startOpenAI();
        const { adapter, server } = harness;
        const log: ReplayLog = { functions: [], shell: [], patches: [] };
        const prompt = replayPrompt(asRecording(recording), log);

        for (const [index, recorded] of recording.streams.entries()) {
          server.reply({ sse: recorded.events }, { json: recorded.response });
          const streamed = await collect(adapter.stream(providerRequest(adapter, prompt)));
          const whole = await settle(adapter.request(providerRequest(adapter, prompt)));

          expect(server.requests[2 * index]?.body['stream']).toBe(true);
          expect(server.requests[2 * index + 1]?.body['stream']).toBeUndefined();
          if (whole.turn === undefined) {
            expect(describeError(streamed.error)).toEqual(describeError(whole.error));
            expect(streamed.parts.filter((part) => part.type === 'turn')).toEqual([]);
            continue;
          }
          expect(streamed.error).toBeUndefined();
          const turn = turnOf(streamed.parts);
          expect(comparable(turn)).toEqual(comparable(whole.turn));
          if (recording.name.endsWith(inconsistentText)) {
            // Hand-written upstream: its deltas stop short of (and differ from) its own done text.
            expect(textOf(streamed.parts)).toBe(recordedDeltas(recorded.events));
            expect(turn.text?.startsWith(textOf(streamed.parts))).toBe(false);
          } else {
            expect(textOf(streamed.parts)).toBe(turn.text ?? '');
          }
          // Function calls stream their start and arguments; shell and apply_patch calls arrive in the turn only.
          const functionCalls = addedFunctionCalls(recorded.events).map((item) => item['call_id']);
          expect(callsOf(streamed.parts)).toEqual(
            (turn.toolCalls ?? [])
              .filter((call) => functionCalls.includes(call.callId))
              .map((call) => [call.callId, call.name, call.arguments]),
          );
        }
        expect(server.requests).toHaveLength(2 * recording.streams.length);
      },
    );

    it('should stream the reasoning summary of a recorded response as reasoning deltas', async () => {
      const recording = recordings.find((entry) =>
        entry.name.endsWith('openai-reasoning-encrypted-content.1.chunks.txt'),
      )!;
      harness = await startOpenAI();
      const { adapter, server } = harness;
      const recorded = recording.streams[0]!;
      server.reply({ sse: recorded.events });
      const log: ReplayLog = { functions: [], shell: [], patches: [] };

      const { parts } = await collect(
        adapter.stream(providerRequest(adapter, replayPrompt(asRecording(recording), log))),
      );

      const reasoning = (recorded.response['output'] as Json[]).find(
        (item) => item['type'] === 'reasoning',
      )!;
      expect(reasoningOf(parts)).toBe(
        (reasoning['summary'] as Json[]).map((part) => String(part['text'])).join(''),
      );
      expect(reasoningOf(parts)).not.toBe('');
      // The summary comes first, then the call: the parts keep the order of the events.
      const kinds = parts.map((part) => part.type).filter((type, i, all) => type !== all[i - 1]);
      expect(kinds).toEqual(['reasoning-delta', 'tool-call-start', 'tool-arguments-delta', 'turn']);
    });
  });

  describe('.stream (Responses API, event handling)', () => {
    const events = (...list: Json[]): string[] => list.map((event) => JSON.stringify(event));
    const created = (response: Json): Json => ({
      type: 'response.created',
      response: { ...response, status: 'in_progress', output: [], usage: null },
    });
    const textDelta = (itemId: string, delta: string): Json => ({
      type: 'response.output_text.delta',
      item_id: itemId,
      output_index: 0,
      content_index: 0,
      delta,
    });

    it('should ignore unknown event types and refusal deltas, and throw the refusal as request() does', async () => {
      harness = await startOpenAI();
      const { adapter, server } = harness;
      const refusal = {
        id: 'msg_refusal',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'refusal', refusal: 'I cannot help with that.' }],
      };
      const response = responseBody([refusal]);
      const sse = events(
        created(response),
        { type: 'response.future_event.added', item_id: 'x', delta: 'not text' },
        {
          type: 'response.refusal.delta',
          item_id: 'msg_refusal',
          delta: 'I cannot help with that.',
        },
        { type: 'response.completed', response },
      );
      server.reply({ sse }, { json: response });
      const prompt = orderDesk([]);

      const streamed = await collect(adapter.stream(providerRequest(adapter, prompt)));
      const whole = await catchRejection(PromptEvaluationError, () =>
        adapter.request(providerRequest(adapter, prompt)),
      );

      expect(streamed.parts).toEqual([]);
      expect(describeError(streamed.error)).toEqual(describeError(whole));
      expect(whole.message).toContain('The model refused to answer: "I cannot help with that."');
    });

    it('should separate the text of two messages as the turn joins them, and map deltas to call ids', async () => {
      harness = await startOpenAI();
      const { adapter, server } = harness;
      const first = message('Looking it up.');
      const second = message('One moment.');
      const call = functionCall(
        'lookup_order',
        { orderId: 'A-1', includeItems: null },
        'call_streamed',
      );
      const response = responseBody([first, second, call]);
      const args = call['arguments'] as string;
      const sse = events(
        created(response),
        textDelta(first['id'] as string, 'Looking '),
        textDelta(first['id'] as string, 'it up.'),
        textDelta(second['id'] as string, 'One moment.'),
        {
          type: 'response.output_item.added',
          output_index: 2,
          item: { ...call, arguments: '', status: 'in_progress' },
        },
        {
          type: 'response.function_call_arguments.delta',
          item_id: call['id'],
          delta: args.slice(0, 9),
        },
        {
          type: 'response.function_call_arguments.delta',
          item_id: call['id'],
          delta: args.slice(9),
        },
        { type: 'response.function_call_arguments.done', item_id: call['id'], arguments: args },
        { type: 'response.output_item.done', output_index: 2, item: call },
        { type: 'response.completed', response },
      );
      server.reply({ sse }, { json: response });
      const prompt = orderDesk([]);

      const { parts } = await collect(adapter.stream(providerRequest(adapter, prompt)));
      const whole = await adapter.request(providerRequest(adapter, prompt));

      expect(parts).toEqual<ProviderStreamPart[]>([
        { type: 'text-delta', delta: 'Looking ' },
        { type: 'text-delta', delta: 'it up.' },
        { type: 'text-delta', delta: '\n\nOne moment.' },
        { type: 'tool-call-start', callId: 'call_streamed', name: 'lookup_order' },
        { type: 'tool-arguments-delta', callId: 'call_streamed', delta: args.slice(0, 9) },
        { type: 'tool-arguments-delta', callId: 'call_streamed', delta: args.slice(9) },
        { type: 'turn', turn: expect.objectContaining(comparable(whole)) as ProviderTurn },
      ]);
      expect(textOf(parts)).toBe(whole.text);
    });

    it('should throw a mid-stream error event after the parts before it, as request() throws the failed response', async () => {
      harness = await startOpenAI();
      const { adapter, server } = harness;
      const response = responseBody([message('Hello there.')]);
      const error = {
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
        message: 'Too long.',
        param: null,
      };
      const failed = {
        ...response,
        status: 'failed',
        output: [],
        error: { code: error.code, message: error.message },
      };
      const sse = events(
        created(response),
        textDelta('msg_1', 'Hello'),
        { type: 'error', error },
        {
          type: 'response.failed',
          response: failed,
        },
      );
      server.reply({ sse }, { json: failed });
      const prompt = orderDesk([]);

      const streamed = await collect(adapter.stream(providerRequest(adapter, prompt)));
      const whole = await catchRejection(PromptEvaluationError, () =>
        adapter.request(providerRequest(adapter, prompt)),
      );

      expect(streamed.parts).toEqual([{ type: 'text-delta', delta: 'Hello' }]);
      expect(describeError(streamed.error)).toEqual(describeError(whole));
      expect(whole.message).toContain('(failed, context_length_exceeded): Too long.');
      expect(server.requests).toHaveLength(2);
    });

    it('should throw a stream that ends without a terminal event once parts were delivered', async () => {
      harness = await startOpenAI();
      const { adapter, server } = harness;
      const response = responseBody([message('Hello there.')]);
      server.reply({ sse: events(created(response), textDelta('msg_1', 'Hello')) });

      const streamed = await collect(adapter.stream(providerRequest(adapter, orderDesk([]))));

      expect(streamed.parts).toEqual([{ type: 'text-delta', delta: 'Hello' }]);
      const error = streamed.error as PromptEvaluationError;
      expect(PromptEvaluationError.is(error)).toBe(true);
      expect(error.phase).toBe('response');
      expect(error.message).toContain(
        'stream ended after 2 event(s) without a response.completed, response.incomplete or response.failed event',
      );
      expect(server.requests).toHaveLength(1);
    });

    it('should read a whole JSON answer from a server that does not stream', async () => {
      harness = await startOpenAI();
      const { adapter, server } = harness;
      const response = responseBody([
        message('Done.'),
        functionCall('lookup_order', { orderId: 'A-2', includeItems: true }, 'call_whole'),
      ]);
      server.reply({ json: response }, { json: response });
      const prompt = orderDesk([]);

      const { parts } = await collect(adapter.stream(providerRequest(adapter, prompt)));
      const whole = await adapter.request(providerRequest(adapter, prompt));

      expect(comparable(turnOf(parts))).toEqual(comparable(whole));
      expect(textOf(parts)).toBe('Done.');
      expect(callsOf(parts)).toEqual([
        ['call_whole', 'lookup_order', '{"orderId":"A-2","includeItems":true}'],
      ]);
    });
  });
});
