import type { ProviderStreamPart } from '../../provider/index.js';
import { isItem, type Item } from '../turn/read-output-items.js';

/** A tool call gathered from its pieces. */
interface CallDraft {
  id: string | undefined;
  type: string | undefined;
  name: string | undefined;
  arguments: string;
  /** Whether its `tool-call-start` part was given. */
  started: boolean;
}

/**
 * Gathers the chunks of a streamed chat completion (first choice only, as the
 * non-streaming path reads) into the completion they add up to: the content
 * and refusal pieces, each tool call from its pieces by `index`, the finish
 * reason and the usage chunk (`choices: []`, with `include_usage`). Each chunk
 * gives its parts as it comes: content pieces as text, a tool call's start
 * once its id and name are known (with the argument pieces sent before them),
 * then each argument piece. Refusal pieces are not text: the refusal is read
 * from the finished completion.
 */
export class ChatStreamAccumulator {
  /** The first chunk: id, created, model. */
  #head: Item | undefined;
  #content: string | null = null;
  #refusal: string | null = null;
  readonly #calls = new Map<number, CallDraft>();
  #lastIndex = 0;
  #finishReason: unknown = null;
  #usage: unknown = undefined;
  #count = 0;

  /** How many chunks were added. */
  get count(): number {
    return this.#count;
  }

  /** Whether a chunk gave the finish reason. */
  get finished(): boolean {
    return this.#finishReason !== null;
  }

  /** Adds one chunk; returns the parts it gives. */
  add(chunk: unknown): readonly ProviderStreamPart[] {
    if (!isItem(chunk)) return [];
    this.#count += 1;
    this.#head ??= chunk;
    if (isItem(chunk['usage'])) this.#usage = chunk['usage'];
    const choices = Array.isArray(chunk['choices']) ? chunk['choices'].filter(isItem) : [];
    const choice = choices.find((entry) => (entry['index'] ?? 0) === 0);
    if (choice === undefined) return [];
    if (typeof choice['finish_reason'] === 'string') this.#finishReason = choice['finish_reason'];
    const delta = isItem(choice['delta']) ? choice['delta'] : {};
    const parts: ProviderStreamPart[] = [];
    const content = delta['content'];
    if (typeof content === 'string') {
      this.#content = (this.#content ?? '') + content;
      if (content !== '') parts.push({ type: 'text-delta', delta: content });
    }
    if (typeof delta['refusal'] === 'string') {
      this.#refusal = (this.#refusal ?? '') + delta['refusal'];
    }
    const calls = Array.isArray(delta['tool_calls']) ? delta['tool_calls'].filter(isItem) : [];
    for (const piece of calls) parts.push(...this.#addCall(piece));
    return parts;
  }

  /** The completion the chunks add up to, in the shape of a non-streamed one. */
  completion(): Record<string, unknown> {
    const head = this.#head ?? {};
    const message: Record<string, unknown> = {
      role: 'assistant',
      content: this.#content,
      refusal: this.#refusal,
    };
    if (this.#calls.size > 0) {
      message['tool_calls'] = [...this.#calls]
        .sort(([a], [b]) => a - b)
        .map(([, call]) => ({
          id: call.id,
          type: call.type ?? 'function',
          function: { name: call.name, arguments: call.arguments },
        }));
    }
    return {
      id: head['id'],
      object: 'chat.completion',
      created: head['created'],
      model: head['model'],
      choices: [{ index: 0, message, finish_reason: this.#finishReason, logprobs: null }],
      usage: this.#usage,
    };
  }

  /** Adds one tool call piece to its call (by `index`; a piece without one continues the last call). */
  #addCall(piece: Item): ProviderStreamPart[] {
    const index = typeof piece['index'] === 'number' ? piece['index'] : this.#lastIndex;
    this.#lastIndex = index;
    let call = this.#calls.get(index);
    if (call === undefined) {
      call = { id: undefined, type: undefined, name: undefined, arguments: '', started: false };
      this.#calls.set(index, call);
    }
    const fn = isItem(piece['function']) ? piece['function'] : {};
    if (typeof piece['id'] === 'string' && piece['id'] !== '') call.id ??= piece['id'];
    if (typeof piece['type'] === 'string') call.type ??= piece['type'];
    if (typeof fn['name'] === 'string' && fn['name'] !== '') call.name ??= fn['name'];
    const args = typeof fn['arguments'] === 'string' ? fn['arguments'] : '';
    call.arguments += args;
    if (call.started) {
      return args === ''
        ? []
        : [{ type: 'tool-arguments-delta', callId: call.id as string, delta: args }];
    }
    if (call.id === undefined || call.name === undefined) return [];
    call.started = true;
    const parts: ProviderStreamPart[] = [
      { type: 'tool-call-start', callId: call.id, name: call.name },
    ];
    if (call.arguments !== '') {
      parts.push({ type: 'tool-arguments-delta', callId: call.id, delta: call.arguments });
    }
    return parts;
  }
}
