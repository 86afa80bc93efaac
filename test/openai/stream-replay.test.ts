import {
  type EvaluateOptions,
  type EvaluationStreamPart,
  type Prompt,
  type PromptResponse,
  Session,
  ToolInvoked,
} from 'affordance';

import {
  type ChatCall,
  type ChatTurn,
  chatTurnChunks,
  chatTurnJson,
} from '../support/chat-turn-stream.js';
import { messageStreamEvents } from '../support/message-stream-events.js';
import { type OpenAIHarness, startOpenAI } from '../support/openai-harness.js';
import { message, responseBody } from '../support/openai-payloads.js';
import { asRecording, loadStreamRecordings } from '../support/openai-streams.js';
import type { Reply } from '../support/openai-test-server.js';
import { type CallLog, OrderSummary, orderDesk } from '../support/order-desk.js';
import {
  asksClient,
  evaluationRun,
  type Json,
  outputOf,
  recordedInput,
  recordedToolChoice,
  replayPrompt,
  type ReplayLog,
} from '../support/recording-replay.js';
import { streamPartProblems } from '../support/stream-part-problems.js';
import {
  comparableEvent,
  recordTelemetry,
  type TelemetryRecord,
} from '../support/telemetry-record.js';

/** Items asking the client for something the adapter does not answer (the evaluation fails on them). */
const unanswerable = new Set(['custom_tool_call', 'local_shell_call', 'mcp_approval_request']);
/** Responses tools whose calls arrive in the turn only (no start or argument deltas). */
const unstreamedTools = new Set(['shell', 'apply_patch']);

/** What one run of an evaluation left behind. */
interface RunOutcome {
  readonly response: PromptResponse;
  readonly telemetry: TelemetryRecord;
  readonly invoked: readonly ToolInvoked[];
  /** The request bodies the server received, without `stream` and `stream_options`. */
  readonly bodies: readonly Json[];
  /** The `stream` flag of each request. */
  readonly streamFlags: readonly unknown[];
  /** The parts of a streamed run (empty for `evaluate`). */
  readonly parts: readonly EvaluationStreamPart[];
}

/** The fields of a response both runs must agree on (not the evaluation id). */
const comparableResponse = (response: PromptResponse) => ({
  promptName: response.promptName,
  text: response.text,
  output: response.output,
  turns: response.turns,
  usage: response.usage,
  toolCalls: response.toolCalls.map((outcome) => ({
    call: outcome.call,
    message: outcome.message,
    event: comparableEvent(outcome.event),
  })),
});

describe('runtime.stream and runtime.evaluate over the OpenAIAdapter', () => {
  const harnesses: OpenAIHarness[] = [];

  afterEach(async () => {
    const started = harnesses.splice(0);
    for (const { server } of started) {
      expect(server.problems()).toEqual([]);
      expect(server.pending).toBe(0);
    }
    await Promise.all(started.map(({ server }) => server.close()));
  });

  /** Runs `prompt` once on a fresh server and runtime answering with `replies`, evaluated or streamed. */
  async function runOnce(
    mode: 'evaluate' | 'stream',
    api: 'responses' | 'chat',
    prompt: Prompt,
    replies: readonly Reply[],
    options: EvaluateOptions,
  ): Promise<RunOutcome> {
    const harness = await startOpenAI({ api });
    harnesses.push(harness);
    harness.server.reply(...replies);
    const session = new Session({ sessionId: 'stream-replay' });
    const telemetry = recordTelemetry(session);
    const evaluateOptions = Object.assign({}, options, { session });
    const parts: EvaluationStreamPart[] = [];
    let response: PromptResponse;
    if (mode === 'evaluate') {
      response = await harness.runtime.evaluate(prompt, evaluateOptions);
    } else {
      for await (const part of harness.runtime.stream(prompt, evaluateOptions)) parts.push(part);
      const last = parts.at(-1);
      if (last?.type === 'error') throw last.error;
      if (last?.type !== 'answer') throw new Error(`the stream ended with ${String(last?.type)}`);
      response = last.response;
    }
    const requests = harness.server.requests;
    return {
      response,
      telemetry,
      invoked: session.slice(ToolInvoked).all(),
      bodies: requests.map(({ body }) => {
        const { stream: _stream, stream_options: _options, ...rest } = body;
        return rest;
      }),
      streamFlags: requests.map(({ body }) => body['stream']),
      parts,
    };
  }

  /** Both runs recorded the same events, sent the same requests and answered alike; the stream is well formed. */
  function expectSameEvaluation(
    evaluated: RunOutcome,
    streamed: RunOutcome,
    unstreamed?: ReadonlySet<string>,
  ): void {
    expect(streamed.telemetry.map(comparableEvent)).toStrictEqual(
      evaluated.telemetry.map(comparableEvent),
    );
    expect(streamed.bodies).toStrictEqual(evaluated.bodies);
    expect(evaluated.streamFlags.every((flag) => flag === undefined)).toBe(true);
    expect(streamed.streamFlags.every((flag) => flag === true)).toBe(true);
    expect(comparableResponse(streamed.response)).toStrictEqual(
      comparableResponse(evaluated.response),
    );
    for (const run of [evaluated, streamed]) {
      expect(new Set(run.telemetry.map((event) => event.evaluationId))).toEqual(
        new Set([run.response.evaluationId]),
      );
    }
    expect(
      streamPartProblems(streamed.parts, {
        invoked: streamed.invoked,
        unstreamedTools: unstreamed,
      }),
    ).toEqual([]);
    const usage = streamed.parts.filter((part) => part.type === 'usage');
    expect(usage.at(-1)?.total).toStrictEqual(streamed.response.usage);
  }

  describe('Responses API, replaying the recorded streams with client-run calls', () => {
    const replayable = loadStreamRecordings().filter((recorded) => {
      const run = evaluationRun(asRecording(recorded));
      const blocked = run.some((exchange) =>
        outputOf(exchange.response).some((item) => unanswerable.has(String(item['type']))),
      );
      return asksClient(run[0]!.response) && !blocked;
    });

    it('should select every recorded stream whose model calls a client-run tool', () => {
      expect(replayable.map((recorded) => recorded.name)).toEqual([
        'vercel-ai/openai-responses/openai-apply-patch-tool-delete.1.chunks.txt',
        'vercel-ai/openai-responses/openai-apply-patch-tool.1.chunks.txt',
        'vercel-ai/openai-responses/openai-client-tool-search.2.chunks.txt',
        'vercel-ai/openai-responses/openai-reasoning-encrypted-content.1.chunks.txt',
        'vercel-ai/openai-responses/openai-shell-tool.1.chunks.txt',
        'pydantic-ai/openai-responses/test_openai_responses_stream.yaml',
      ]);
    });

    it.each(replayable.map((recorded) => [recorded.name, recorded] as const))(
      'should record the same events for %s evaluated and streamed',
      async (_name, recorded) => {
        const recording = asRecording(recorded);
        const run = evaluationRun(recording);
        const streams = recorded.streams.slice(0, run.length);
        // Calls left to answer at the end of the recording: one synthetic answer ends the evaluation.
        const closing = asksClient(run.at(-1)!.response)
          ? [responseBody([message('Closing answer (synthetic), after the recorded calls.')])]
          : [];
        const log: ReplayLog = { functions: [], shell: [], patches: [] };
        const takeLog = (): ReplayLog => ({
          functions: log.functions.splice(0),
          shell: log.shell.splice(0),
          patches: log.patches.splice(0),
        });
        const prompt = replayPrompt(recording, log);
        const options = {
          input: recordedInput(recording),
          toolChoice: recordedToolChoice(recording),
        };

        const evaluated = await runOnce(
          'evaluate',
          'responses',
          prompt,
          [
            ...streams.map((stream) => ({ json: stream.response })),
            ...closing.map((json) => ({ json })),
          ],
          options,
        );
        const evaluatedLog = takeLog();
        const streamed = await runOnce(
          'stream',
          'responses',
          prompt,
          [
            ...streams.map((stream) => ({ sse: stream.events })),
            ...closing.map((json) => ({ sse: messageStreamEvents(json) })),
          ],
          options,
        );
        const streamedLog = takeLog();

        expectSameEvaluation(evaluated, streamed, unstreamedTools);
        expect(streamedLog).toStrictEqual(evaluatedLog);
        const dispatched = evaluated.invoked.filter((event) => !event.native);
        expect(dispatched.length).toBeGreaterThan(0);
        expect(dispatched.map((event) => event.outcome)).toEqual(dispatched.map(() => 'success'));
        const handled =
          evaluatedLog.functions.length + evaluatedLog.shell.length + evaluatedLog.patches.length;
        expect(handled).toBe(dispatched.length);
      },
    );
  });

  describe('Chat Completions, hand-written chunk streams', () => {
    const lookup = (id: string, orderId: string): ChatCall[] => [
      { id, name: 'lookup_order', args: JSON.stringify({ orderId, includeItems: null }) },
    ];
    const scenarios: readonly (readonly [string, readonly ChatTurn[], boolean])[] = [
      [
        'two parallel calls interleaved by index, then a streamed answer',
        [
          {
            calls: [
              ...lookup('call_lookup', 'A-1'),
              {
                id: 'call_note',
                name: 'annotate',
                args: '{"note":"asked about A-1","extra":{"vip":true}}',
              },
            ],
            promptTokens: 120,
            completionTokens: 40,
          },
          {
            content: 'Order A-1 has shipped; I noted the question.',
            promptTokens: 180,
            completionTokens: 12,
          },
        ],
        false,
      ],
      [
        'text with a call, then calls that fail validation, then an answer',
        [
          {
            content: 'Let me look that up.',
            calls: lookup('call_first', 'A-2'),
            promptTokens: 90,
            completionTokens: 20,
          },
          {
            calls: [
              ...lookup('call_short', 'X'),
              { id: 'call_broken', name: 'annotate', args: '{"note":"unterminated' },
              { id: 'call_unknown', name: 'cancel_order', args: '{"orderId":"A-2"}' },
            ],
            promptTokens: 140,
            completionTokens: 30,
          },
          { content: 'A-2 has shipped.', promptTokens: 210, completionTokens: 6 },
        ],
        false,
      ],
      [
        'a call, then a structured answer streamed in pieces',
        [
          { calls: lookup('call_summary', 'A-7'), promptTokens: 100, completionTokens: 18 },
          { content: '{"orderId": "A-7", "note": null}', promptTokens: 150, completionTokens: 14 },
        ],
        true,
      ],
    ];

    it.each(scenarios)(
      'should record the same events for %s, evaluated and streamed',
      async (_name, turns, structured) => {
        const log: CallLog = [];
        const prompt: Prompt = structured ? orderDesk(log, OrderSummary) : orderDesk(log);
        const options = { input: 'Where is my order?' };

        const evaluated = await runOnce(
          'evaluate',
          'chat',
          prompt,
          turns.map((turn) => ({ json: chatTurnJson(turn) })),
          options,
        );
        const evaluatedLog = log.splice(0);
        const streamed = await runOnce(
          'stream',
          'chat',
          prompt,
          turns.map((turn) => ({ sse: chatTurnChunks(turn) })),
          options,
        );
        const streamedLog = log.splice(0);

        expectSameEvaluation(evaluated, streamed);
        expect(streamedLog).toStrictEqual(evaluatedLog);
        const calls = turns.flatMap((turn) => turn.calls ?? []);
        expect(streamed.invoked.map((event) => event.callId)).toEqual(calls.map((call) => call.id));
        if (structured) expect(streamed.response.output).toBeInstanceOf(OrderSummary);
      },
    );

    it('should tell a stream that breaks its contract from the one the runtime produced', async () => {
      const [, turns] = scenarios[0]!;
      const log: CallLog = [];
      const { parts, invoked } = await runOnce(
        'stream',
        'chat',
        orderDesk(log),
        turns.map((turn) => ({ sse: chatTurnChunks(turn) })),
        { input: 'Where is my order?' },
      );
      const index = (type: EvaluationStreamPart['type']) =>
        parts.findIndex((part) => part.type === type);
      const without = (at: number) => parts.filter((_, i) => i !== at);
      const swapped = (a: number, b: number) =>
        parts.map((part, i) => (i === a ? parts[b]! : i === b ? parts[a]! : part));
      const at = (type: EvaluationStreamPart['type']) =>
        parts.flatMap((part, i) => (part.type === type ? [i] : []));
      const ends = at('tool-call-end');
      const broken: Record<string, readonly EvaluationStreamPart[]> = {
        'an argument delta lost': without(index('tool-arguments-delta')),
        'a start after its arguments': swapped(
          index('tool-call-start'),
          index('tool-arguments-delta'),
        ),
        'a call ended before its turn': swapped(index('turn-end'), ends[0]!),
        'two calls ended in the wrong order': swapped(ends[0]!, ends[1]!),
        'a turn without its start': without(at('turn-start').at(-1)!),
        'a text delta lost': without(at('text-delta').at(-1)!),
        'an answer twice': [...parts, parts.at(-1)!],
      };

      expect(streamPartProblems(parts, { invoked })).toEqual([]);
      for (const [breakage, mutated] of Object.entries(broken)) {
        expect([breakage, streamPartProblems(mutated, { invoked }).length > 0]).toEqual([
          breakage,
          true,
        ]);
      }
    });
  });
});
