import { PromptEvaluationError } from '../../src/core/errors/prompt-evaluation-error.js';
import { AnthropicAdapter } from '../../src/anthropic/index.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import { Session } from '../../src/session/session.js';
import { catchRejection } from '../support/catch-error.js';
import { type AnthropicHarness, startAnthropic } from '../support/anthropic-harness.js';
import { messageBody } from '../support/anthropic-payloads.js';
import {
  type AnthropicRecording,
  blocksOf,
  cassetteRecordings,
  clientCalls,
  evaluationRun,
  type Json,
  jsonRecordings,
  recordedInput,
  recordedToolChoice,
  replayPrompt,
  type ReplayLog,
} from '../support/anthropic-recordings.js';

/**
 * The shape of a request's conversation: per message its role and blocks,
 * ids as `#1`, `#2`... in order of appearance, tool results with their
 * content and `is_error`.
 */
function shape(body: Json | null | undefined): string[] {
  const ids = new Map<string, string>();
  const id = (value: unknown): string => {
    const text = String(value);
    if (!ids.has(text)) ids.set(text, `#${ids.size + 1}`);
    return ids.get(text) as string;
  };
  return ((body?.['messages'] ?? []) as Json[]).map((message) => {
    const blocks = blocksOf(message).map((block) => {
      const type = String(block['type']);
      if (type === 'tool_result') {
        return `${type}:${id(block['tool_use_id'])}:${String(block['content'])}:${block['is_error'] === true}`;
      }
      return block['id'] === undefined ? type : `${type}:${id(block['id'])}`;
    });
    return `${String(message['role'])}:${blocks.join(',')}`;
  });
}

const serverCalls = (message: Json): Json[] =>
  blocksOf(message).filter(
    (block) => block['type'] === 'server_tool_use' || block['type'] === 'mcp_tool_use',
  );

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

  describe('.request (replaying every recorded payload)', () => {
    const recordings = [...jsonRecordings(), ...cassetteRecordings()];

    it('should find every recording', () => {
      expect(recordings).toHaveLength(12 + 4);
    });

    it.each(recordings.map((recording) => [recording.name, recording] as const))(
      'should replay %s',
      async (_name, recording: AnthropicRecording) => {
        const first = recording.exchanges[0]!.request;
        const thinking = first?.['thinking'] as Json | undefined;
        const started = await startAnthropic(
          thinking === undefined
            ? {}
            : {
                maxTokens: first!['max_tokens'] as number,
                thinking: { budgetTokens: thinking['budget_tokens'] as number },
              },
        );
        harness = started;
        const log: ReplayLog = [];
        const session = new Session();
        const run = evaluationRun(recording);
        for (const exchange of run)
          started.server.reply({ status: exchange.status, json: exchange.response });
        if (clientCalls(run.at(-1)!.response).length > 0) {
          started.server.reply({ json: messageBody({ text: 'Closing answer (synthetic).' }) });
        }
        const evaluation = started.runtime.evaluate(replayPrompt(recording, log), {
          session,
          input: recordedInput(recording),
          toolChoice: recordedToolChoice(recording),
        });

        if (run[0]!.response['stop_reason'] === 'refusal') {
          const error = await catchRejection(PromptEvaluationError, () => evaluation);
          expect(error.message).toContain('The model refused to answer');
          return;
        }
        const response = await evaluation;

        // Client calls dispatched to the matching tools, in order, with the recorded input.
        const calls = run.flatMap((exchange) => clientCalls(exchange.response));
        const invoked = session.slice(ToolInvoked).all();
        expect(
          invoked.filter((event) => !event.native).map((event) => [event.callId, event.outcome]),
        ).toEqual(calls.map((call) => [call['id'], 'success']));
        expect(
          log.map(([name, params]) => [name, params === undefined ? {} : { ...(params as Json) }]),
        ).toEqual(calls.map((call) => [call['name'], call['input']]));
        // Server tool calls recorded as native events, never run here.
        const servers = run.flatMap((exchange) => serverCalls(exchange.response));
        expect(invoked.filter((event) => event.native).map((event) => event.callId)).toEqual(
          servers.map((call) => call['id']),
        );
        // Each follow-up sends the recorded answer back unchanged, then one result per call.
        run.slice(0, -1).forEach((exchange, index) => {
          const sent = started.server.requests[index + 1]!.body['messages'] as Json[];
          expect(sent.at(-2)).toEqual({ role: 'assistant', content: exchange.response['content'] });
          expect(blocksOf(sent.at(-1)).map((block) => block['tool_use_id'])).toEqual(
            clientCalls(exchange.response).map((call) => call['id']),
          );
          const recorded = run[index + 1]!.request;
          if (recorded !== null)
            expect(shape(started.server.requests[index + 1]!.body)).toEqual(shape(recorded));
        });
        if (calls.length === 0) {
          const texts = blocksOf(run[0]!.response)
            .filter((block) => block['type'] === 'text')
            .map((block) => block['text'] as string);
          expect(response.text).toBe(texts.join(''));
        }
      },
    );
  });
});
