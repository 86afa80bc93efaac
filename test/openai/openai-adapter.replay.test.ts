import { PromptEvaluationError } from '../../src/core/errors/prompt-evaluation-error.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import { OpenAIAdapter } from '../../src/openai/index.js';
import { Session } from '../../src/session/session.js';
import { catchRejection } from '../support/catch-error.js';
import { type OpenAIHarness, startOpenAI } from '../support/openai-harness.js';
import { chatCompletion, message, responseBody } from '../support/openai-payloads.js';
import {
  asksClient,
  chatCallsOf,
  evaluationRun,
  isChat,
  isHostedShell,
  type Json,
  loadRecordings,
  outputOf,
  type Recording,
  recordedInput,
  recordedToolChoice,
  replayPrompt,
  type ReplayLog,
} from '../support/recording-replay.js';

/** Items that ask the client for something this adapter does not answer; the replay must fail on them. */
const unanswerable = new Set(['custom_tool_call', 'local_shell_call', 'mcp_approval_request']);
const hostedCalls = new Set([
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'image_generation_call',
  'mcp_call',
]);
const outputTypes: Readonly<Record<string, string>> = {
  function_call: 'function_call_output',
  shell_call: 'shell_call_output',
  apply_patch_call: 'apply_patch_call_output',
};

interface ClientCall {
  readonly type: string;
  readonly callId: string;
  readonly name: string;
  readonly item: Json;
}

function clientCalls(response: Json): ClientCall[] {
  const chat = chatCallsOf(response).map((call) => ({
    type: 'function_call',
    callId: String(call['id']),
    name: String((call['function'] as Json)['name']),
    item: call['function'] as Json,
  }));
  const responses = outputOf(response)
    .filter(
      (item) =>
        String(item['type']) in outputTypes &&
        !(item['type'] === 'shell_call' && isHostedShell(item)),
    )
    .map((item) => ({
      type: String(item['type']),
      callId: String(item['call_id']),
      name:
        item['type'] === 'function_call'
          ? String(item['name'])
          : String(item['type']).replace('_call', ''),
      item,
    }));
  return [...chat, ...responses];
}

/**
 * The shape of a request's conversation: item types and roles, call ids as
 * `#1`, `#2`... in order of appearance (a 2025 recorder sent item ids where
 * call ids belong) and tool outputs; empty assistant texts and the system
 * prompt left out.
 */
function shape(body: Json | null | undefined): string[] {
  const items = (body?.['input'] ?? body?.['messages'] ?? []) as Json[];
  const ids = new Map<string, string>();
  const id = (value: unknown): string => {
    const text = String(value);
    if (!ids.has(text)) ids.set(text, `#${ids.size + 1}`);
    return ids.get(text) as string;
  };
  return items
    .filter(
      (item) =>
        !(
          item['role'] === 'assistant' &&
          item['content'] === '' &&
          item['tool_calls'] === undefined
        ),
    )
    .filter((item) => item['role'] !== 'system' && item['role'] !== 'developer')
    .map((item) => {
      if (item['role'] === 'tool')
        return `tool:${id(item['tool_call_id'])}:${String(item['content'])}`;
      if (item['role'] !== undefined) {
        const calls = (item['tool_calls'] as Json[] | undefined)?.map((call) => id(call['id']));
        return `message:${item['role'] as string}${calls === undefined ? '' : `:${calls.join(',')}`}`;
      }
      const call = item['call_id'] === undefined ? '' : `:${id(item['call_id'])}`;
      const output = item['type'] === 'function_call_output' ? `:${String(item['output'])}` : '';
      return `${String(item['type'])}${call}${output}`;
    });
}

/** `reasoning_tokens` of a recorded body's usage (Responses or Chat Completions details), if any. */
function recordedReasoningTokens(body: Json): number[] {
  const usage = body['usage'] as Json | undefined;
  const details = (usage?.['output_tokens_details'] ?? usage?.['completion_tokens_details']) as
    Json | undefined;
  const count = details?.['reasoning_tokens'];
  return typeof count === 'number' ? [count] : [];
}

const key = (item: Json): string =>
  `${String(item['type'])}:${String(item['id'] ?? item['call_id'])}`;

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

  describe('.request (replaying the recorded payloads with tool calls)', () => {
    const recordings = loadRecordings();

    it('should find every recording', () => {
      expect(recordings.length).toBeGreaterThanOrEqual(48);
    });

    it.each(
      recordings.map(
        (recording) =>
          [
            recording.synthetic ? `${recording.name} (synthetic: shapes only)` : recording.name,
            recording,
          ] as const,
      ),
    )('should replay %s', async (_name, recording: Recording) => {
      const chat = isChat(recording);
      const started = await startOpenAI({ api: chat ? 'chat' : 'responses' });
      harness = started;
      const log: ReplayLog = { functions: [], shell: [], patches: [] };
      const session = new Session();
      const run = evaluationRun(recording);
      const blocked = run.flatMap((exchange) =>
        outputOf(exchange.response).filter((item) => unanswerable.has(String(item['type']))),
      );
      for (const exchange of run)
        started.server.reply({ status: exchange.status, json: exchange.response });
      const closing = blocked.length === 0 && asksClient(run.at(-1)!.response);
      if (closing) {
        // The recording ends with calls to answer: one synthetic closing answer ends the evaluation.
        started.server.reply({
          json: chat
            ? chatCompletion({ content: 'Closing answer (synthetic).' })
            : responseBody([message('Closing answer (synthetic).')]),
        });
      }
      const evaluation = started.runtime.evaluate(replayPrompt(recording, log), {
        session,
        input: recordedInput(recording),
        toolChoice: recordedToolChoice(recording),
      });

      if (blocked.length > 0) {
        const error = await catchRejection(PromptEvaluationError, () => evaluation);
        expect(error.phase).toBe('response');
        expect(error.message).toContain(`sent a ${String(blocked[0]!['type'])}`);
        return;
      }
      const response = await evaluation;
      // The recorded reasoning token counts, summed over the run.
      const reasoning = run.flatMap((exchange) => recordedReasoningTokens(exchange.response));
      if (reasoning.length > 0) {
        expect(response.usage?.reasoningTokens).toBe(reasoning.reduce((a, b) => a + b, 0));
      }

      const invoked = session.slice(ToolInvoked).all();
      const calls = run.flatMap((exchange) => clientCalls(exchange.response));
      // Calls dispatched to the matching tools, in order, with the recorded arguments.
      expect(
        invoked.filter((event) => !event.native).map((event) => [event.callId, event.outcome]),
      ).toEqual(calls.map((call) => [call.callId, 'success']));
      const functions = calls.filter((call) => call.type === 'function_call');
      expect(
        log.functions.map(([name, params]) => [
          name,
          params === undefined ? {} : { ...(params as Json) },
        ]),
      ).toEqual(
        functions.map((call) => [call.name, JSON.parse(String(call.item['arguments'])) as unknown]),
      );
      expect(log.shell.map((params) => (params as Json)['commands'])).toEqual(
        calls
          .filter((call) => call.type === 'shell_call')
          .map((call) => (call.item['action'] as Json)['commands']),
      );
      expect(log.patches.map((operation) => ({ ...(operation as Json) }))).toEqual(
        calls
          .filter((call) => call.type === 'apply_patch_call')
          .map((call) => call.item['operation']),
      );
      // Provider-executed calls recorded as native ToolInvoked events.
      const hosted = run.flatMap((exchange) =>
        outputOf(exchange.response).filter(
          (item) =>
            hostedCalls.has(String(item['type'])) ||
            (item['type'] === 'shell_call' && isHostedShell(item)),
        ),
      );
      expect(
        invoked.filter((event) => event.native).map((event) => [event.callId, event.outcome]),
      ).toEqual(hosted.map((item) => [String(item['call_id'] ?? item['id']), 'success']));

      // Each follow-up carries the previous output items, then one answer per client call.
      run.forEach((exchange, index) => {
        const next = started.server.requests[index + 1];
        if (!asksClient(exchange.response) || next === undefined) return;
        if (chat) {
          const messages = next.body['messages'] as Json[];
          const assistant = messages.filter((item) => item['role'] === 'assistant').at(-1);
          expect((assistant?.['tool_calls'] as Json[]).map((call) => call['id'])).toEqual(
            chatCallsOf(exchange.response).map((call) => call['id']),
          );
          return;
        }
        const sent = (next.body['input'] as Json[]).map(key);
        const previous = outputOf(exchange.response).map(key);
        const answers = clientCalls(exchange.response).map(
          (call) => `${outputTypes[call.type]}:${call.callId}`,
        );
        const start = sent.indexOf(previous[0]!);
        expect(sent.slice(start, start + previous.length + answers.length)).toEqual([
          ...previous,
          ...answers,
        ]);
      });
      // Where the follow-up was recorded too, ours has the same structure.
      run.forEach((exchange, index) => {
        if (index === 0 || exchange.request === null) return;
        expect(shape(started.server.requests[index]?.body)).toEqual(shape(exchange.request));
      });
    });
  });
});
