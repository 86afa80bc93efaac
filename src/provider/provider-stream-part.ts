import type { ProviderTurn } from './conversation.js';

/**
 * One piece of a streamed provider turn, in neutral form. A stream yields any
 * number of deltas as the provider sends them, then exactly one `turn` part,
 * last: the same {@link ProviderTurn} `request()` returns for the same answer.
 * The runtime acts on the `turn` part alone (tool calls run from it); the
 * deltas are for the people watching.
 *
 * - `text-delta`: a piece of the assistant's visible text.
 * - `reasoning-delta`: a piece of a reasoning summary, where the provider sends one.
 * - `tool-call-start`: the model began a tool call (`callId` as in the turn's `toolCalls`).
 * - `tool-arguments-delta`: a piece of that call's JSON arguments.
 * - `turn`: the whole turn, read exactly as `request()` reads it.
 */
export type ProviderStreamPart =
  | { readonly type: 'text-delta'; readonly delta: string }
  | { readonly type: 'reasoning-delta'; readonly delta: string }
  | { readonly type: 'tool-call-start'; readonly callId: string; readonly name: string }
  | { readonly type: 'tool-arguments-delta'; readonly callId: string; readonly delta: string }
  | { readonly type: 'turn'; readonly turn: ProviderTurn };

/**
 * The parts a whole turn would have streamed: its text as one delta, each tool
 * call's start and arguments, then the turn. What an adapter that cannot
 * stream yields (the default `ProviderAdapter.stream`).
 */
export function partsOfTurn(turn: ProviderTurn): ProviderStreamPart[] {
  const parts: ProviderStreamPart[] = [];
  if (typeof turn.text === 'string' && turn.text !== '') {
    parts.push({ type: 'text-delta', delta: turn.text });
  }
  for (const call of turn.toolCalls ?? []) {
    parts.push({ type: 'tool-call-start', callId: call.callId, name: call.name });
    // JSON.stringify answers undefined for undefined arguments.
    const text =
      typeof call.arguments === 'string'
        ? call.arguments
        : (JSON.stringify(call.arguments) as string | undefined);
    if (text !== undefined && text !== '') {
      parts.push({ type: 'tool-arguments-delta', callId: call.callId, delta: text });
    }
  }
  parts.push({ type: 'turn', turn });
  return parts;
}
