import { chatCompletion } from './openai-payloads.js';
import { wordPieces } from './message-stream-events.js';

type Json = Record<string, unknown>;

/** One function call of a {@link ChatTurn}. */
export interface ChatCall {
  readonly id: string;
  readonly name: string;
  /** The arguments as the model sends them (JSON text, or not). */
  readonly args: string;
}

/** One Chat Completions answer, to be sent whole ({@link chatTurnJson}) or streamed ({@link chatTurnChunks}). */
export interface ChatTurn {
  readonly content?: string;
  readonly calls?: readonly ChatCall[];
  readonly promptTokens: number;
  readonly completionTokens: number;
}

const head = {
  id: 'chatcmpl-replay',
  object: 'chat.completion.chunk',
  created: 1_767_225_600,
  model: 'gpt-test',
  system_fingerprint: 'fp_replay',
};

/** A chunk carrying `delta` for the first choice. */
const chunk = (delta: Json, finishReason: string | null = null): string =>
  JSON.stringify({
    ...head,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    usage: null,
  });

/** The whole completion of `turn`. */
export function chatTurnJson(turn: ChatTurn): Json {
  return chatCompletion({
    content: turn.content ?? null,
    toolCalls: (turn.calls ?? []).map((call) => ({
      id: call.id,
      name: call.name,
      args: call.args,
    })),
    promptTokens: turn.promptTokens,
    completionTokens: turn.completionTokens,
  });
}

/**
 * `turn` as OpenAI streams it with `stream_options.include_usage`: a first
 * chunk with the role (and `content: ""` when there is text, `null` when there
 * is none), the text in word-sized pieces, each call's first chunk with its
 * `index`, `id`, `type` and `name`, then the argument pieces of all calls
 * interleaved by index (7 characters each), a chunk with the finish reason, and
 * last a chunk with no choice and the usage.
 */
export function chatTurnChunks(turn: ChatTurn): string[] {
  const calls = turn.calls ?? [];
  const chunks = [
    chunk({ role: 'assistant', content: turn.content === undefined ? null : '', refusal: null }),
  ];
  for (const piece of wordPieces(turn.content ?? '')) chunks.push(chunk({ content: piece }));
  calls.forEach((call, index) => {
    const opening = {
      index,
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: '' },
    };
    chunks.push(chunk({ tool_calls: [opening] }));
  });
  const pieces = calls.map((call) => call.args.match(/[\s\S]{1,7}/g) ?? []);
  const rounds = Math.max(0, ...pieces.map((list) => list.length));
  for (let round = 0; round < rounds; round++) {
    pieces.forEach((list, index) => {
      const piece = list[round];
      if (piece !== undefined) {
        chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    });
  }
  chunks.push(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'));
  const total = turn.promptTokens + turn.completionTokens;
  chunks.push(
    JSON.stringify({
      ...head,
      choices: [],
      usage: {
        prompt_tokens: turn.promptTokens,
        completion_tokens: turn.completionTokens,
        total_tokens: total,
        prompt_tokens_details: { cached_tokens: 0 },
      },
    }),
  );
  return chunks;
}
