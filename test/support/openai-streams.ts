import { readdirSync, readFileSync } from 'node:fs';

import { systemClock } from '../../src/core/clock.js';
import type { Prompt } from '../../src/prompt/prompt.js';
import type { ProviderAdapter } from '../../src/provider/provider-adapter.js';
import type { ProviderRequest } from '../../src/provider/provider-request.js';
import type { ProviderStreamPart } from '../../src/provider/provider-stream-part.js';
import type { ProviderTurn } from '../../src/provider/conversation.js';
import type { SseEvent } from './openai-test-server.js';
import type { Json, Recording } from './recording-replay.js';

/** One streamed response of a recording: its events, unchanged, and the response its last event carries. */
export interface RecordedStream {
  readonly events: readonly SseEvent[];
  readonly response: Json;
}

/** A file of `test/fixtures/openai/streams` (see its README): one or more streamed responses. */
export interface StreamRecording {
  readonly name: string;
  readonly streams: readonly RecordedStream[];
}

const root = new URL('../fixtures/openai/streams/', import.meta.url);
const terminalTypes = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/** Every recorded stream: the vercel-ai `.chunks.txt` files, then the pydantic-ai cassette. */
export function loadStreamRecordings(): StreamRecording[] {
  const folder = 'vercel-ai/openai-responses/';
  const recordings = readdirSync(new URL(folder, root))
    .filter((file) => file.endsWith('.chunks.txt'))
    .sort()
    .map((file) => {
      const lines = readFileSync(new URL(folder + file, root), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '');
      return { name: folder + file, streams: splitResponses(lines.map((data) => ({ data }))) };
    });
  const cassette = 'pydantic-ai/openai-responses/test_openai_responses_stream.yaml';
  const bodies = blockStrings(readFileSync(new URL(cassette, root), 'utf8'));
  recordings.push({
    name: cassette,
    streams: bodies.flatMap((body) => splitResponses(sseEvents(body))),
  });
  return recordings;
}

/** Splits events into responses, each ending at its terminal event. */
function splitResponses(events: readonly { event?: string; data: string }[]): RecordedStream[] {
  const streams: RecordedStream[] = [];
  let current: SseEvent[] = [];
  for (const { event, data } of events) {
    current.push(event === undefined ? data : { event, data });
    const parsed = JSON.parse(data) as Json;
    if (terminalTypes.has(String(parsed['type']))) {
      streams.push({ events: current, response: parsed['response'] as Json });
      current = [];
    }
  }
  if (current.length > 0) throw new Error('a recorded stream ends without a terminal event');
  return streams;
}

/** The literal block scalars `string: |+` of a VCR cassette (its raw response bodies). */
function blockStrings(yaml: string): string[] {
  const lines = yaml.split('\n');
  const bodies: string[] = [];
  lines.forEach((line, index) => {
    const key = /^( *)string: \|\+?$/.exec(line);
    if (key === null) return;
    const keyIndent = key[1]!.length;
    const body: string[] = [];
    for (const next of lines.slice(index + 1)) {
      if (next.trim() !== '' && next.length - next.trimStart().length <= keyIndent) break;
      body.push(next);
    }
    const indent = Math.min(
      ...body
        .filter((text) => text.trim() !== '')
        .map((text) => text.length - text.trimStart().length),
    );
    bodies.push(body.map((text) => text.slice(indent)).join('\n'));
  });
  return bodies;
}

/** The events of a raw SSE body (`event:` and `data:` lines, events separated by a blank line). */
function sseEvents(body: string): { event?: string; data: string }[] {
  return body
    .split(/\n\n+/)
    .map((block) => block.split('\n').filter((line) => line !== ''))
    .filter((block) => block.length > 0)
    .map((block) => {
      const field = (name: string) =>
        block.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
      const data = field('data');
      if (data === undefined) throw new Error(`an SSE event without data: ${block.join(' / ')}`);
      const event = field('event');
      return event === undefined ? { data } : { event, data };
    });
}

/** The recording shape `replayPrompt` reads, from the responses a stream recording completes with. */
export function asRecording(recording: StreamRecording): Recording {
  return {
    name: recording.name,
    source: recording.name,
    synthetic: false,
    exchanges: recording.streams.map((stream) => ({
      request: null,
      status: 200,
      response: stream.response,
    })),
  };
}

/** What {@link providerRequest} may change. */
export interface RequestInit {
  readonly input?: string;
  readonly signal?: AbortSignal;
  readonly output?: ProviderRequest['output'];
}

/**
 * A first-turn `ProviderRequest` for `prompt`, as the runtime builds one: the
 * rendered prompt as the system message, the input as the user message, and
 * each tool as the adapter offers it.
 */
export function providerRequest(
  adapter: ProviderAdapter,
  prompt: Prompt,
  init: RequestInit = {},
): ProviderRequest {
  const rendered = prompt.render();
  return {
    prompt: { name: prompt.name, ns: prompt.ns, key: prompt.key, label: prompt.label },
    messages: [
      { role: 'system', content: rendered.text },
      { role: 'user', content: init.input ?? 'Go on.' },
    ],
    tools: rendered.tools.map((tool) => adapter.toolSpec(tool)),
    toolChoice: 'auto',
    output: init.output,
    turn: 0,
    evaluationId: 'eval_stream_test',
    signal: init.signal ?? new AbortController().signal,
    deadline: undefined,
    clock: systemClock,
  };
}

/** What a stream yielded before it ended, and what it threw, if anything. */
export interface Collected {
  readonly parts: ProviderStreamPart[];
  readonly error: unknown;
}

/** Reads a stream to its end. */
export async function collect(stream: AsyncIterable<ProviderStreamPart>): Promise<Collected> {
  const parts: ProviderStreamPart[] = [];
  try {
    for await (const part of stream) parts.push(part);
  } catch (error) {
    return { parts, error };
  }
  return { parts, error: undefined };
}

/** The text deltas joined. */
export const textOf = (parts: readonly ProviderStreamPart[]): string =>
  parts.map((part) => (part.type === 'text-delta' ? part.delta : '')).join('');

/** The reasoning deltas joined. */
export const reasoningOf = (parts: readonly ProviderStreamPart[]): string =>
  parts.map((part) => (part.type === 'reasoning-delta' ? part.delta : '')).join('');

/** Each started call's name and argument deltas joined, in order of start. */
export function callsOf(parts: readonly ProviderStreamPart[]): [string, string, string][] {
  const calls = new Map<string, [string, string, string]>();
  for (const part of parts) {
    if (part.type === 'tool-call-start') calls.set(part.callId, [part.callId, part.name, '']);
    if (part.type === 'tool-arguments-delta') {
      const call = calls.get(part.callId);
      if (call === undefined) throw new Error(`arguments of ${part.callId} before its start`);
      call[2] += part.delta;
    }
  }
  return [...calls.values()];
}

/** The turn part, checking that there is exactly one and that it comes last. */
export function turnOf(parts: readonly ProviderStreamPart[]): ProviderTurn {
  const turns = parts.filter((part) => part.type === 'turn');
  const last = parts.at(-1);
  if (turns.length !== 1 || last?.type !== 'turn') {
    throw new Error(
      `expected exactly one turn part, last; got ${parts.map((p) => p.type).join(', ')}`,
    );
  }
  return last.turn;
}

/** The fields of a turn that streaming and `request()` must agree on. */
export const comparable = (turn: ProviderTurn) => ({
  text: turn.text,
  toolCalls: turn.toolCalls,
  nativeCalls: turn.nativeCalls,
  parsed: turn.parsed,
  finishReason: turn.finishReason,
  usage: turn.usage,
  providerItems: turn.providerItems,
});
