import { type EvaluationState, ToolInvoked } from 'affordance';

import {
  type ApprovalRules,
  type Compared,
  expectSameEvaluation,
  type Json,
  runBoth,
  type Scenario,
} from '../support/approval-replay.js';
import { type ChatTurn, chatTurnJson } from '../support/chat-turn-stream.js';
import { startOpenAI } from '../support/openai-harness.js';
import { asRecording, loadStreamRecordings } from '../support/openai-streams.js';
import type { Reply } from '../support/openai-test-server.js';
import { orderDesk } from '../support/order-desk.js';
import {
  chatCallsOf,
  evaluationRun,
  isChat,
  loadRecordings,
  outputOf,
  type Recording,
  recordedInput,
  recordedToolChoice,
  replayPrompt,
} from '../support/recording-replay.js';

/** A model's function call as a recorded response holds it. */
interface RecordedCall {
  readonly name: string;
  readonly args: Json;
}

/** The function calls of a recorded response (Responses or Chat Completions). */
function callsOf(response: Json): RecordedCall[] {
  const chat = chatCallsOf(response).map((call) => call['function'] as Json);
  const responses = outputOf(response).filter((item) => item['type'] === 'function_call');
  return [...chat, ...responses].map((call) => ({
    name: String(call['name']),
    args: JSON.parse(String(call['arguments'])) as Json,
  }));
}

/** An OpenAI conversation: which recorded calls the approval rules hold for, and the recorded turns. */
interface OpenAIScenario extends Omit<Scenario<Reply>, 'start' | 'pauseTurns'> {
  readonly api: 'responses' | 'chat';
  /** Which recorded calls the rules hold for (the pauses are the turns with one). */
  readonly held: (call: RecordedCall) => boolean;
  /** The model's turns as recorded, to find the pauses in. */
  readonly turns: readonly Json[];
}

/** The turns (0 first) whose recorded calls the scenario's rules hold for. */
const pauseTurnsOf = (scenario: OpenAIScenario): number[] =>
  scenario.turns.flatMap((turn, index) => (callsOf(turn).some(scenario.held) ? [index] : []));

/** Runs the scenario uninterrupted, then pausing where its rules say, each process on a fresh OpenAI server. */
const runOpenAI = (scenario: OpenAIScenario): Promise<Compared> =>
  runBoth(
    Object.assign({}, scenario, {
      start: () => startOpenAI({ api: scenario.api }),
      pauseTurns: pauseTurnsOf(scenario),
    }),
  );

/** {@link runOpenAI}, then {@link expectSameEvaluation}. */
async function sameEvaluation(scenario: OpenAIScenario): Promise<Compared> {
  const compared = await runOpenAI(scenario);
  expectSameEvaluation(compared);
  return compared;
}

const recordings = new Map(loadRecordings().map((recording) => [recording.name, recording]));

function recordingNamed(name: string): Recording {
  const recording = recordings.get(name);
  if (recording === undefined) throw new Error(`no recording ${name}`);
  return recording;
}

/** A recorded conversation as a scenario: its replies, and `rules` on its tools. */
function recorded(
  name: string,
  rules: ApprovalRules,
  held: (call: RecordedCall) => boolean,
): OpenAIScenario {
  const recording = recordingNamed(name);
  const run = evaluationRun(recording);
  return {
    api: isChat(recording) ? 'chat' : 'responses',
    build: (ran) => replayPrompt(recording, { functions: ran, shell: [], patches: [] }),
    replies: run.map((exchange) => ({ status: exchange.status, json: exchange.response })),
    rules,
    held,
    turns: run.map((exchange) => exchange.response),
    options: { input: recordedInput(recording), toolChoice: recordedToolChoice(recording) },
  };
}

const SIMPLE_CALL =
  'pydantic-ai/openai-responses/test_openai_responses_model_simple_response_with_tool_call.json';
const REASONING_CALL =
  'pydantic-ai/openai-responses/test_openai_responses_thinking_with_tool_calls.json';
const CHAT_CALL = 'pydantic-ai/tool-choice-matrix/test_tool_choice_matrix[auto-openai].json';
const STREAMED = 'vercel-ai/openai-responses/openai-reasoning-encrypted-content.1.chunks.txt';

/** The reasoning items of a body's `input`. */
const reasoningItems = (body: Json | undefined): Json[] =>
  ((body?.['input'] ?? []) as Json[]).filter((item) => item['type'] === 'reasoning');

describe('approval over the OpenAIAdapter: a resumed evaluation sends what an uninterrupted one sends', () => {
  it('Responses, a recorded function call: paused, saved as JSON and resumed in a fresh process', async () => {
    const scenario = recorded(SIMPLE_CALL, { get_capital: true }, () => true);
    const { paused } = await sameEvaluation(scenario);
    // The process that resumed sent the follow-up: the recorded call item and its output.
    const [first, resumed] = paused.segments;
    expect(first).toHaveLength(1);
    expect(resumed).toHaveLength(1);
    const input = resumed![0]!['input'] as Json[];
    expect(input.map((item) => item['type'] ?? item['role'])).toEqual([
      'message',
      'function_call',
      'function_call_output',
    ]);
    expect(input[1]).toStrictEqual(outputOf(scenario.turns[0]!)[0]);
    const answer = outputOf(scenario.turns[1]!)[0]!['content'] as Json[];
    expect(paused.response.text).toBe(answer[0]!['text']);
  });

  it('Responses, a recorded reasoning item with encrypted content before the call: carried through the saved state', async () => {
    const scenario = recorded(REASONING_CALL, { update_plan: true }, () => true);
    const { paused } = await sameEvaluation(scenario);
    const recordedReasoning = outputOf(scenario.turns[0]!).filter(
      (item) => item['type'] === 'reasoning',
    );
    expect(recordedReasoning).toHaveLength(1);
    expect(recordedReasoning[0]!['encrypted_content']).toEqual(expect.any(String));
    expect(reasoningItems(paused.segments[1]![0])).toStrictEqual(recordedReasoning);
  });

  it('Chat Completions, a recorded tool call', async () => {
    const scenario = recorded(CHAT_CALL, { get_weather: true }, () => true);
    expect(scenario.api).toBe('chat');
    const { paused } = await sameEvaluation(scenario);
    // The follow-up answers the recorded call with the output the recorded follow-up sent.
    const messages = paused.segments[1]![0]!['messages'] as Json[];
    const recordedFollowUp = recordingNamed(CHAT_CALL).exchanges[1]!.request!;
    expect(messages.at(-1)).toStrictEqual((recordedFollowUp['messages'] as Json[]).at(-1));
    expect(messages.at(-1)?.['tool_call_id']).toBe(chatCallsOf(scenario.turns[0]!)[0]!['id']);
  });

  it('Chat Completions, hand-written parallel calls: the call before the pending one runs before the pause', async () => {
    const turns: ChatTurn[] = [
      {
        content: 'Looking A-1 up and noting it.',
        calls: [
          {
            id: 'call_lookup',
            name: 'lookup_order',
            args: '{"orderId":"A-1","includeItems":null}',
          },
          { id: 'call_note', name: 'annotate', args: '{"note":"asked about A-1","extra":{}}' },
          { id: 'call_again', name: 'lookup_order', args: '{"orderId":"B-2","includeItems":true}' },
        ],
        promptTokens: 120,
        completionTokens: 40,
      },
      { content: 'A-1 and B-2 have shipped; noted.', promptTokens: 180, completionTokens: 12 },
    ];
    const replies = turns.map((turn) => ({ json: chatTurnJson(turn) }));
    const { paused, pausedRan } = await sameEvaluation({
      api: 'chat',
      build: (ran) => orderDesk(ran),
      replies,
      rules: { annotate: true },
      held: (call) => call.name === 'annotate',
      turns: replies.map((reply) => reply.json),
      options: { input: 'Where are A-1 and B-2?' },
    });
    const { pending } = JSON.parse(paused.saved[0]!) as EvaluationState;
    expect(pending.map((call) => call.callId)).toEqual(['call_note']);
    expect(pausedRan.map(([name]) => name)).toEqual(['lookup_order', 'annotate', 'lookup_order']);
  });

  it('Responses streamed: a recorded stream with reasoning pauses twice and streams each resume in a fresh process', async () => {
    const recording = loadStreamRecordings().find((entry) => entry.name.endsWith(STREAMED));
    if (recording === undefined) throw new Error(`no stream recording ${STREAMED}`);
    const asRecorded = asRecording(recording);
    const run = evaluationRun(asRecorded);
    const multiply = (params: unknown): boolean => (params as Json)['op'] === 'multiply';
    const scenario: OpenAIScenario = {
      api: 'responses',
      build: (ran) => replayPrompt(asRecorded, { functions: ran, shell: [], patches: [] }),
      replies: recording.streams.slice(0, run.length).map((stream) => ({ sse: stream.events })),
      rules: { calculator: multiply },
      held: (call) => multiply(call.args),
      turns: run.map((exchange) => exchange.response),
      options: { input: recordedInput(asRecorded) },
      mode: 'stream',
    };
    expect(pauseTurnsOf(scenario)).toEqual([1, 2]);
    const { paused } = await sameEvaluation(scenario);
    expect(paused.bodies.map((body) => body['stream'])).toEqual([true, true, true, true]);
    // The first turn's reasoning item went through two saved states, unchanged.
    const recordedReasoning = outputOf(run[0]!.response).filter(
      (item) => item['type'] === 'reasoning',
    );
    expect(recordedReasoning).toHaveLength(1);
    expect(reasoningItems(paused.segments[2]![0])).toStrictEqual(recordedReasoning);
  });

  it('Responses, a rejection: the function_call_output the provider receives carries the person message', async () => {
    const reason = 'Capitals of fictional countries are not looked up.';
    const { baseline, paused, pausedRan } = await runOpenAI({
      ...recorded(SIMPLE_CALL, { get_capital: true }, () => true),
      decide: (pending) =>
        pending.map((call) => ({ callId: call.callId, approved: false, message: reason })),
    });
    expect(pausedRan).toEqual([]);
    const [record] = paused.session.view.slice(ToolInvoked).all();
    expect(record?.outcome).toBe('denied');
    expect(record?.renderedMessage).toContain(reason);
    expect(record?.renderedMessage).toContain('get_capital');
    // The follow-up is the uninterrupted one with the rejection text as the call's output.
    const expected = structuredClone(baseline.bodies);
    const output = (expected[1]!['input'] as Json[]).find(
      (item) => item['type'] === 'function_call_output',
    );
    expect(output?.['output']).toBe('Potato City');
    output!['output'] = record?.renderedMessage;
    expect(paused.bodies).toStrictEqual(expected);
  });
});
