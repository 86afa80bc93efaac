import { type EvaluationState, ToolInvoked } from 'affordance';

import type { AnthropicAdapterOptions } from '../../src/anthropic/index.js';
import { startAnthropic } from '../support/anthropic-harness.js';
import { messageBody, messageEvents } from '../support/anthropic-payloads.js';
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
} from '../support/anthropic-recordings.js';
import type { AnthropicReply } from '../support/anthropic-test-server.js';
import {
  answerOf,
  type ApprovalRules,
  type Compared,
  expectSameEvaluation,
  runBoth,
  type Scenario,
  sessionRecords,
} from '../support/approval-replay.js';

const recordings = new Map(
  [
    ...jsonRecordings(),
    ...cassetteRecordings(),
    ...cassetteRecordings('pydantic-ai/tool-choice-matrix'),
  ].map((recording) => [recording.name, recording]),
);

const PARALLEL = 'pydantic-ai/test_multiple_parallel_tool_calls.yaml';
const THINKING = 'pydantic-ai/test_anthropic_tool_with_thinking.yaml';
const SERVER_TOOLS = [
  'vercel-ai/anthropic-tool-search-regex.1.json',
  'vercel-ai/anthropic-programmatic-tool-calling.1.json',
] as const;
const SINGLE = 'pydantic-ai/tool-choice-matrix/test_tool_choice_matrix[auto-anthropic].yaml';

/** The adapter options the recording was made with (thinking budget and max tokens, when thinking was on). */
function recordedOptions(recording: AnthropicRecording): Partial<AnthropicAdapterOptions> {
  const first = recording.exchanges[0]?.request;
  const thinking = first?.['thinking'] as Json | undefined;
  if (thinking === undefined) return {};
  return {
    maxTokens: first?.['max_tokens'] as number,
    thinking: { budgetTokens: thinking['budget_tokens'] as number },
  };
}

/**
 * The events the API streams for a recorded message: `messageEvents`, with
 * each thinking block opened empty and sent as `thinking_delta` pieces and a
 * `signature_delta`, as the API streams thinking.
 */
function streamedEvents(whole: Json): Json[] {
  return messageEvents(whole).flatMap((event) => {
    const block = event['content_block'] as Json | undefined;
    if (event['type'] !== 'content_block_start' || block?.['type'] !== 'thinking') return [event];
    const index = event['index'];
    const text = String(block['thinking']);
    const pieces = text.match(/[\s\S]{1,40}/g) ?? [];
    return [
      {
        type: 'content_block_start',
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      },
      ...pieces.map((piece) => ({
        type: 'content_block_delta',
        index,
        delta: { type: 'thinking_delta', thinking: piece },
      })),
      {
        type: 'content_block_delta',
        index,
        delta: { type: 'signature_delta', signature: block['signature'] },
      },
    ];
  });
}

/**
 * A recording as a scenario: `rules` on its tools, pausing at each turn with
 * a call `held` says they hold for. A recording that ends with calls to
 * answer gets one synthetic closing answer, as in the replay tests.
 */
function recorded(
  name: string,
  rules: ApprovalRules,
  held: (call: Json) => boolean,
  mode: 'evaluate' | 'stream' = 'evaluate',
): Scenario<AnthropicReply> & { readonly turns: readonly Json[] } {
  const recording = recordings.get(name);
  if (recording === undefined) throw new Error(`no recording ${name}`);
  const run = evaluationRun(recording);
  const turns = run.map((exchange) => exchange.response);
  if (clientCalls(turns.at(-1)!).length > 0) {
    turns.push(messageBody({ text: 'Closing answer (synthetic).' }));
  }
  return {
    start: () => startAnthropic(recordedOptions(recording)),
    build: (ran) => replayPrompt(recording, ran),
    replies: turns.map((turn) =>
      mode === 'stream' ? { events: streamedEvents(turn) } : { json: turn },
    ),
    rules,
    pauseTurns: turns.flatMap((turn, index) => (clientCalls(turn).some(held) ? [index] : [])),
    options: { input: recordedInput(recording), toolChoice: recordedToolChoice(recording) },
    mode,
    turns,
  };
}

async function sameEvaluation(scenario: Scenario<AnthropicReply>): Promise<Compared> {
  const compared = await runBoth(scenario);
  expectSameEvaluation(compared);
  return compared;
}

/** The `messages` of a request body. */
const messagesOf = (body: Json | undefined): Json[] => (body?.['messages'] ?? []) as Json[];

/** Calls of `retrieve_entity_info` for Charlie: the third of four parallel calls. */
const charlie = (call: Json): boolean => (call['input'] as Json)['name'] === 'Charlie';
const charlieRule: ApprovalRules = {
  retrieve_entity_info: (params) => (params as Json)['name'] === 'Charlie',
};

/** {@link recorded} with the first turn's last client call needing approval: the calls before it, server tools included, run first. */
function lastCallHeld(name: string): ReturnType<typeof recorded> {
  const calls = clientCalls(evaluationRun(recordings.get(name)!)[0]!.response);
  const last = calls.at(-1)!;
  return recorded(
    name,
    { [String(last['name'])]: (_params, context) => context.callId === last['id'] },
    (call) => call['id'] === last['id'],
  );
}

describe('approval over the AnthropicAdapter: a resumed evaluation sends what an uninterrupted one sends', () => {
  it('a recorded tool_use: paused, saved as JSON and resumed in a fresh process', async () => {
    const scenario = recorded(SINGLE, { get_weather: true }, () => true);
    expect(scenario.pauseTurns).toEqual([0]);
    const { paused } = await sameEvaluation(scenario);
    const sent = messagesOf(paused.segments[1]![0]);
    expect(sent.at(-2)).toStrictEqual({
      role: 'assistant',
      content: scenario.turns[0]!['content'],
    });
  });

  it('recorded parallel tool_use blocks: the calls before the pending one run before the pause, the rest after', async () => {
    const scenario = recorded(PARALLEL, charlieRule, charlie);
    const { paused, pausedRan } = await sameEvaluation(scenario);
    const state = JSON.parse(paused.saved[0]!) as EvaluationState;
    const ids = clientCalls(scenario.turns[0]!).map((call) => call['id']);
    expect(state.pending.map((call) => [call.callId, call.params])).toEqual([
      [ids[2], { name: 'Charlie' }],
    ]);
    expect(state.remaining.map((call) => call.callId)).toEqual(ids.slice(2));
    expect(pausedRan.map(([, params]) => (params as Json)['name'])).toEqual([
      'Alice',
      'Bob',
      'Charlie',
      'Daisy',
    ]);
  });

  it('a recorded thinking block with its signature before the tool_use: carried through the saved state', async () => {
    const scenario = recorded(THINKING, { get_user_country: true }, () => true);
    const thinking = blocksOf(scenario.turns[0]).filter((block) => block['type'] === 'thinking');
    expect(thinking).toHaveLength(1);
    expect(thinking[0]!['signature']).toEqual(expect.any(String));
    const { paused } = await sameEvaluation(scenario);
    const sent = messagesOf(paused.segments[1]![0]);
    expect(sent.at(-2)).toStrictEqual({
      role: 'assistant',
      content: scenario.turns[0]!['content'],
    });
    expect(paused.segments[1]![0]!['thinking']).toStrictEqual({
      type: 'enabled',
      budget_tokens: 3000,
    });
  });

  it('streamed: the thinking block and its signature streamed in pieces, the resume streamed in a fresh process', async () => {
    const scenario = recorded(THINKING, { get_user_country: true }, () => true, 'stream');
    const { paused } = await sameEvaluation(scenario);
    expect(paused.bodies.map((body) => body['stream'])).toEqual([true, true]);
    const sent = messagesOf(paused.segments[1]![0]);
    expect(sent.at(-2)).toStrictEqual({
      role: 'assistant',
      content: scenario.turns[0]!['content'],
    });
  });

  it('a rejection: the tool_result the provider receives carries the person message with is_error: true', async () => {
    const reason = 'Charlie asked not to be looked up.';
    const { baseline, paused, pausedRan } = await runBoth({
      ...recorded(PARALLEL, charlieRule, charlie),
      decide: (pending) =>
        pending.map((call) => ({ callId: call.callId, approved: false, message: reason })),
    });
    expect(pausedRan.map(([, params]) => (params as Json)['name'])).toEqual([
      'Alice',
      'Bob',
      'Daisy',
    ]);
    const denied = paused.session.view
      .slice(ToolInvoked)
      .all()
      .filter((event) => event.outcome === 'denied');
    expect(denied.map((event) => event.callId)).toEqual(['toolu_01XFyAjstT3966qvRynZyVPo']);
    const message = denied[0]!.renderedMessage;
    expect(message).toContain(reason);
    expect(message).toContain('retrieve_entity_info');
    // The follow-up is the uninterrupted one with Charlie's result replaced by the rejection, marked as an error.
    const expected = structuredClone(baseline.bodies);
    const results = blocksOf(messagesOf(expected[1]).at(-1));
    const rejected = results.find((block) => block['tool_use_id'] === denied[0]!.callId);
    expect(rejected).toStrictEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_01XFyAjstT3966qvRynZyVPo',
      content: "charlie is alice's son",
      is_error: false,
    });
    Object.assign(rejected!, { content: message, is_error: true });
    expect(paused.bodies).toStrictEqual(expected);
    expect(results.filter((block) => block['is_error'] === true)).toHaveLength(1);
  });

  it.each(SERVER_TOOLS)(
    'server tool blocks before the pending tool_use (%s): the same requests and records',
    async (name) => {
      const scenario = lastCallHeld(name);
      expect(scenario.pauseTurns).toEqual([0]);
      const { baseline, paused } = await runBoth(scenario);
      expect(paused.bodies).toStrictEqual(baseline.bodies);
      expect(sessionRecords(paused.session)).toStrictEqual(sessionRecords(baseline.session));
      const sent = messagesOf(paused.segments[1]![0]);
      expect(sent.at(-2)).toStrictEqual({
        role: 'assistant',
        content: scenario.turns[0]!['content'],
      });
      const natives = paused.session.view
        .slice(ToolInvoked)
        .all()
        .filter((event) => event.native);
      expect(natives.length).toBeGreaterThan(0);
      expect(answerOf(paused.response)).toStrictEqual(answerOf(baseline.response));
    },
  );

  // Found by this test: a native call's outcome once kept the adapter's ProviderNativeCall (with the
  // provider's payload as `call.result`) uninterrupted, while a resume rebuilt it from the record;
  // both now hold the call as sent, { callId, name, arguments }.
  it('the answer of a resumed evaluation equals the uninterrupted one when server tools ran before the pause', async () => {
    const { baseline, paused } = await runBoth(lastCallHeld(SERVER_TOOLS[0]));
    expect(answerOf(paused.response)).toStrictEqual(answerOf(baseline.response));
  });
});
