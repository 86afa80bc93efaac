import { type EvaluationStreamPart, type PromptResponse, Session } from '../index.js';
import type { AdapterConformanceCheck } from './adapter-harness.js';
import { conformancePrompts } from './conformance-prompts.js';
import {
  type CheckRun,
  conformanceFailure,
  describeThrown,
  defineCheck,
  expectSame,
  freshRuntime,
  recordEvents,
  show,
  succeeded,
  withAdapter,
} from './conformance-support.js';
import type { ScriptedTurn } from './scripted-adapter.js';

const SAME_TURN =
  "make stream()'s final 'turn' part equal to what request() returns for the same answer, " +
  'and yield it last, exactly once.';
const DELTAS =
  "yield the text and each call's arguments as deltas that add up to the turn (a stream that cannot stream " +
  'may inherit ProviderAdapter.stream, which yields the whole turn).';

const script: ScriptedTurn[] = [
  {
    text: 'Let me work that out.',
    toolCalls: [
      { callId: 'call_add', name: 'add', arguments: { a: 2, b: 3 } },
      { callId: 'call_echo', name: 'echo', arguments: { text: 'stream me' } },
    ],
    usage: { inputTokens: 12, outputTokens: 5 },
  },
  {
    text: 'Two plus three is five, and the echo came back.',
    usage: { inputTokens: 30, outputTokens: 11 },
  },
];

/** Evaluates the script with `evaluate`: the response and the events recorded. */
async function evaluated(run: CheckRun): Promise<{ response: PromptResponse; events: unknown[] }> {
  const { tools } = conformancePrompts();
  return withAdapter(run, script, {}, async (opened) => {
    const session = new Session();
    const events = recordEvents(session);
    const response = await succeeded(
      run,
      freshRuntime().evaluate(tools, { adapter: opened.adapter, session, input: 'Go.' }),
    );
    return { response, events: events() };
  });
}

/** Evaluates the script with `stream`: every part and the events recorded. */
async function streamed(
  run: CheckRun,
): Promise<{ parts: EvaluationStreamPart[]; events: unknown[] }> {
  const { tools } = conformancePrompts();
  return withAdapter(run, script, {}, async (opened) => {
    const session = new Session();
    const events = recordEvents(session);
    const parts: EvaluationStreamPart[] = [];
    const stream = freshRuntime().stream(tools, { adapter: opened.adapter, session, input: 'Go.' });
    for await (const part of stream) parts.push(part);
    return { parts, events: events() };
  });
}

/** The streamed answer: the one `answer` part, last, or a failure naming what came instead. */
function answerOf(run: CheckRun, parts: readonly EvaluationStreamPart[]): PromptResponse {
  const last = parts.at(-1);
  if (last?.type === 'error') {
    throw conformanceFailure(
      run,
      `the stream ended with an error: ${describeThrown(last.error)}.`,
      SAME_TURN,
      last.error,
    );
  }
  if (last?.type !== 'answer' || parts.filter((part) => part.type === 'answer').length !== 1) {
    throw conformanceFailure(
      run,
      `expected exactly one 'answer' part, last; got ${parts.map((part) => part.type).join(', ')}.`,
      SAME_TURN,
    );
  }
  return last.response;
}

/** Fails at the first event the two runs recorded differently. */
function expectSameEvents(
  run: CheckRun,
  streamedEvents: unknown[],
  evaluatedEvents: unknown[],
): void {
  const length = Math.max(streamedEvents.length, evaluatedEvents.length);
  for (let index = 0; index < length; index++) {
    const expected = show(evaluatedEvents[index]);
    const actual = show(streamedEvents[index]);
    if (JSON.stringify(streamedEvents[index]) === JSON.stringify(evaluatedEvents[index])) continue;
    throw conformanceFailure(
      run,
      `runtime.stream recorded event ${index + 1} of ${length} differently from runtime.evaluate: ` +
        `expected ${expected}, got ${actual}.`,
      SAME_TURN,
    );
  }
}

/** The deltas of one kind joined, per key (the turn for text, the call id for arguments). */
function joined(parts: readonly EvaluationStreamPart[]): {
  text: string[];
  args: Map<string, string>;
} {
  const text: string[] = [];
  const args = new Map<string, string>();
  for (const part of parts) {
    if (part.type === 'text-delta') text[part.turn] = (text[part.turn] ?? '') + part.delta;
    if (part.type === 'tool-call-start') args.set(part.callId, args.get(part.callId) ?? '');
    if (part.type === 'tool-arguments-delta')
      args.set(part.callId, (args.get(part.callId) ?? '') + part.delta);
  }
  return { text, args };
}

/** Parses joined argument deltas, or keeps the text when it is not JSON. */
function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const streamingParity = defineCheck(
  'streams the same evaluation it evaluates: same events in order, deltas adding up to the turn',
  async (run) => {
    const whole = await evaluated(run);
    const { parts, events } = await streamed(run);
    const answer = answerOf(run, parts);
    expectSameEvents(run, events, whole.events);
    expectSame(
      run,
      'the streamed answer [text, turns, usage]',
      [answer.text, answer.turns, answer.usage],
      [whole.response.text, whole.response.turns, whole.response.usage],
      SAME_TURN,
    );
    const { text, args } = joined(parts);
    expectSame(
      run,
      'the text deltas of each turn, joined',
      text,
      script.map((turn) => turn.text),
      DELTAS,
    );
    expectSame(
      run,
      'the tool calls started, with their argument deltas joined',
      [...args].map(([callId, joinedArgs]) => [callId, parsedArguments(joinedArgs)]),
      (script[0]?.toolCalls ?? []).map((call) => [call.callId, call.arguments]),
      DELTAS,
    );
  },
);

/** The checks of streaming. */
export const streamChecks: readonly AdapterConformanceCheck[] = [streamingParity];
