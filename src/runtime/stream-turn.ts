import { AnswerMeter, checkAnswerSize } from '../provider/answer-limit.js';
import type { ProviderTurn } from '../provider/conversation.js';
import type { ProviderAdapter } from '../provider/provider-adapter.js';
import type { ProviderRequest } from '../provider/provider-request.js';
import type { ProviderStreamPart } from '../provider/provider-stream-part.js';
import type { EvaluationStreamPart } from './evaluation-stream-part.js';
import type { PartSink } from './evaluation-stream.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';

/**
 * Asks `adapter` for one whole turn; a turn over `request.maxAnswerChars`
 * fails, whichever adapter returned it (docs/guide/guarantees.md). @internal
 */
export async function wholeTurn(
  adapter: ProviderAdapter,
  request: ProviderRequest,
): Promise<ProviderTurn> {
  const turn = await adapter.request(request);
  checkAnswerSize(turn, request);
  return turn;
}

/**
 * Streams one request of a streamed evaluation: `turn-start`, then the
 * adapter's deltas as they come; returns the turn the stream ends with. The
 * deltas are counted against `request.maxAnswerChars` as they arrive: the
 * first one over it stops the adapter's stream (and so its HTTP request)
 * and fails the turn, and so does a final turn over it. @internal
 */
export async function streamTurn(
  adapter: ProviderAdapter,
  request: ProviderRequest,
  sink: PartSink,
): Promise<ProviderTurn> {
  const turn = request.turn;
  await sink.send({ type: 'turn-start', turn });
  let answer: ProviderTurn | undefined;
  const meter = new AnswerMeter(request.maxAnswerChars, request.prompt.label);
  for await (const part of adapter.stream(request)) {
    if (answer !== undefined) {
      throw new Error(`the adapter's stream yielded a '${part.type}' part after its 'turn' part`);
    }
    if (part.type === 'turn') {
      checkAnswerSize(part.turn, request);
      answer = part.turn;
      continue;
    }
    meter.count(part);
    const full = sink.send(streamPartOf(part, turn));
    if (full !== undefined) await full;
  }
  if (answer === undefined) throw new Error("the adapter's stream ended without a 'turn' part");
  return answer;
}

/** A provider's delta as a part of the evaluation stream, tagged with its turn. */
function streamPartOf(
  part: Exclude<ProviderStreamPart, { type: 'turn' }>,
  turn: number,
): EvaluationStreamPart {
  switch (part.type) {
    case 'text-delta':
    case 'reasoning-delta':
      return { type: part.type, turn, delta: part.delta };
    case 'tool-call-start':
      return { type: part.type, turn, callId: part.callId, name: part.name };
    case 'tool-arguments-delta':
      return { type: part.type, turn, callId: part.callId, delta: part.delta };
  }
}

/** Sends each recorded call of turn `turn` as a `tool-call-end` part (without waiting: the call already ran). @internal */
export function sendOutcomes(sink: PartSink, turn: number): (outcome: ToolCallOutcome) => void {
  return (outcome) => {
    sink.sendNow({ type: 'tool-call-end', turn, event: outcome.event, message: outcome.message });
  };
}
