import type { EvaluationStreamPart } from '../../src/runtime/evaluation-stream-part.js';
import type { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';

type Part = EvaluationStreamPart;
type TurnPart = Extract<Part, { turn: number }>;

/**
 * Where each part may come within its turn, from the order `EvaluationStreamPart`
 * documents: `turn-start`; deltas; `usage`; `native-call`s; `turn-end`; `tool-call-end`s.
 */
const rank: Readonly<Record<TurnPart['type'], number>> = {
  'turn-start': 0,
  'text-delta': 1,
  'reasoning-delta': 1,
  'tool-call-start': 1,
  'tool-arguments-delta': 1,
  usage: 2,
  'native-call': 3,
  'turn-end': 4,
  'tool-call-end': 5,
};

/** What {@link streamPartProblems} checks the parts against. */
export interface StreamExpectations {
  /** Every `ToolInvoked` the evaluation's session holds, in session order. */
  readonly invoked: readonly ToolInvoked[];
  /** Tools whose calls arrive in the turn only, without `tool-call-start` and argument deltas. */
  readonly unstreamedTools?: ReadonlySet<string> | undefined;
}

/**
 * Every way `parts` (a whole streamed evaluation) breaks the stream's
 * contract: turns in order, each a block opening with `turn-start` and in the
 * documented order; each tool call started before its argument deltas, which
 * join to the call's `rawArguments`; one `tool-call-end` or `native-call` per
 * recorded call, carrying the very event the session holds; the `turn-end`
 * call counts; and exactly one `answer`, last, whose text the final turn's
 * text deltas add up to (for a free-text answer). Empty when well formed.
 */
export function streamPartProblems(parts: readonly Part[], expected: StreamExpectations): string[] {
  const problems: string[] = [];
  const last = parts.at(-1);
  const terminal = parts.filter((part) => part.type === 'answer' || part.type === 'error');
  if (terminal.length !== 1 || last?.type !== 'answer') {
    problems.push(`expected one answer part, last; got ${terminal.map((p) => p.type).join(', ')}`);
    return problems;
  }
  const turns = groupTurns(parts.slice(0, -1), problems);
  turns.forEach((turn, index) => {
    checkTurn(turn, index, expected, problems);
  });
  if (turns.length !== last.response.turns) {
    problems.push(`${turns.length} turns streamed, the answer says ${last.response.turns}`);
  }
  const recorded = parts.flatMap((part) =>
    part.type === 'tool-call-end' || part.type === 'native-call' ? [part.event] : [],
  );
  if (
    recorded.length !== expected.invoked.length ||
    recorded.some((event, i) => event !== expected.invoked[i])
  ) {
    problems.push('the tool-call-end and native-call events are not the events the session holds');
  }
  const finalText = (turns.at(-1) ?? [])
    .map((part) => (part.type === 'text-delta' ? part.delta : ''))
    .join('');
  if (last.response.output === null && finalText !== (last.response.text ?? '')) {
    problems.push(`the final turn streamed ${JSON.stringify(finalText)}, the answer is different`);
  }
  return problems;
}

/** Splits the parts into turns 0, 1, ...; every part before the answer must belong to one. */
function groupTurns(parts: readonly Part[], problems: string[]): TurnPart[][] {
  const turns: TurnPart[][] = [];
  for (const part of parts) {
    if (!('turn' in part)) {
      problems.push(`a '${part.type}' part before the end`);
      continue;
    }
    if (part.type === 'turn-start') {
      if (part.turn !== turns.length)
        problems.push(`turn-start ${part.turn} after ${turns.length}`);
      turns.push([]);
    }
    const current = turns.at(-1);
    if (current === undefined || part.turn !== turns.length - 1) {
      problems.push(`a '${part.type}' part of turn ${part.turn} outside its turn`);
      continue;
    }
    current.push(part);
  }
  return turns;
}

/** Checks one turn's order, its calls' starts and arguments, and its `turn-end` count. */
function checkTurn(
  turn: readonly TurnPart[],
  index: number,
  expected: StreamExpectations,
  problems: string[],
): void {
  const at = `turn ${index}`;
  turn.forEach((part, i) => {
    const previous = turn[i - 1];
    if (previous !== undefined && rank[part.type] < rank[previous.type]) {
      problems.push(`${at}: '${part.type}' after '${previous.type}'`);
    }
  });
  for (const once of ['turn-start', 'usage', 'turn-end'] as const) {
    const count = turn.filter((part) => part.type === once).length;
    if (count > 1 || (count === 0 && once !== 'usage')) problems.push(`${at}: ${count} '${once}'`);
  }
  const streamed = new Map<string, { name: string; args: string }>();
  for (const part of turn) {
    if (part.type === 'tool-call-start') {
      if (streamed.has(part.callId)) problems.push(`${at}: ${part.callId} started twice`);
      streamed.set(part.callId, { name: part.name, args: '' });
    } else if (part.type === 'tool-arguments-delta') {
      const call = streamed.get(part.callId);
      if (call === undefined) problems.push(`${at}: arguments of ${part.callId} before its start`);
      else call.args += part.delta;
    }
  }
  const ends = turn.filter((part) => part.type === 'tool-call-end');
  for (const { event, message } of ends) {
    const call = streamed.get(event.callId ?? '');
    if (message !== event.renderedMessage) problems.push(`${at}: ${event.callId} message differs`);
    if (expected.unstreamedTools?.has(event.name) === true) continue;
    if (call === undefined) problems.push(`${at}: ${event.callId} ended without a start`);
    else if (call.name !== event.name || call.args !== event.rawArguments) {
      problems.push(`${at}: ${event.callId} streamed ${call.name}(${call.args})`);
    }
  }
  for (const callId of streamed.keys()) {
    if (!ends.some(({ event }) => event.callId === callId)) {
      problems.push(`${at}: ${callId} started but never ended`);
    }
  }
  const end = turn.find((part) => part.type === 'turn-end');
  if (end !== undefined && end.toolCalls !== ends.length) {
    problems.push(`${at}: turn-end counts ${end.toolCalls} calls, ${ends.length} ended`);
  }
}
