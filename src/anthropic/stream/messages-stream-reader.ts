import { PromptEvaluationError } from '../../index.js';
import {
  type ProviderStreamPart,
  type ProviderTurn,
  RetryableResponseError,
  type StreamReader,
} from '../../provider/index.js';
import { isBlock, type Block } from '../turn/content-block.js';

type Mutable = Record<string, unknown>;

/** Block types whose `input` streams as `input_json_delta` pieces. */
const inputBlocks = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

/**
 * Reads the raw events of one streamed Messages API answer: `text_delta` →
 * `text-delta`, `thinking_delta` → `reasoning-delta`, a client `tool_use`
 * block's start → `tool-call-start` and its `input_json_delta` pieces →
 * `tool-arguments-delta` (the forced output tool and server tools stream
 * nothing); `ping` and unknown events are ignored. It rebuilds the message
 * as the API would have sent it whole (blocks, inputs parsed, signatures,
 * citations, `message_delta` stop reason and cumulative usage); `end()`
 * gives it as the turn's `raw`, for the adapter to read as `request()` does.
 */
export class MessagesStreamReader implements StreamReader {
  readonly #prompt: string;
  readonly #outputTool: string | undefined;
  #message: Mutable = { type: 'message', role: 'assistant', content: [] };
  readonly #blocks: (Mutable | undefined)[] = [];
  readonly #json = new Map<number, string>();
  #stopped = false;

  constructor(prompt: string, outputTool: string | undefined) {
    this.#prompt = prompt;
    this.#outputTool = outputTool;
  }

  read(event: unknown): readonly ProviderStreamPart[] {
    if (!isBlock(event)) return [];
    switch (event['type']) {
      case 'message_start':
        if (isBlock(event['message'])) this.#message = { ...event['message'] };
        return [];
      case 'content_block_start':
        return this.#start(event);
      case 'content_block_delta':
        return this.#delta(event);
      case 'content_block_stop':
        this.#stop(Number(event['index']));
        return [];
      case 'message_delta':
        this.#messageDelta(event);
        return [];
      case 'message_stop':
        this.#stopped = true;
        return [];
      default:
        return [];
    }
  }

  readError(thrown: unknown): unknown {
    return thrown;
  }

  end(): ProviderTurn {
    if (!this.#stopped) {
      const final = new PromptEvaluationError(
        'The Anthropic Messages stream ended before its message_stop event, so the answer is incomplete. ' +
          'Fix: run the evaluation again; if it keeps happening, check that the client baseURL is the ' +
          'Anthropic API and that no proxy cuts long responses.',
        { phase: 'response', prompt: this.#prompt, providerPayload: this.#whole() },
      );
      throw new RetryableResponseError('stream ended early', final);
    }
    return { raw: this.#whole() };
  }

  #whole(): Mutable {
    const whole: Mutable = { ...this.#message };
    whole['content'] = this.#blocks.filter((block): block is Mutable => block !== undefined);
    return whole;
  }

  #start(event: Block): ProviderStreamPart[] {
    const index = Number(event['index']);
    if (!isBlock(event['content_block'])) return [];
    const block: Mutable = { ...event['content_block'] };
    this.#blocks[index] = block;
    if (!inputBlocks.has(String(block['type']))) return [];
    this.#json.set(index, '');
    if (!this.#isClientCall(block)) return [];
    return [{ type: 'tool-call-start', callId: String(block['id']), name: String(block['name']) }];
  }

  #delta(event: Block): ProviderStreamPart[] {
    const block = this.#blocks[Number(event['index'])];
    const delta = event['delta'];
    if (block === undefined || !isBlock(delta)) return [];
    switch (delta['type']) {
      case 'text_delta': {
        const text = String(delta['text']);
        block['text'] = `${typeof block['text'] === 'string' ? block['text'] : ''}${text}`;
        return text === '' ? [] : [{ type: 'text-delta', delta: text }];
      }
      case 'thinking_delta': {
        const text = String(delta['thinking']);
        block['thinking'] =
          `${typeof block['thinking'] === 'string' ? block['thinking'] : ''}${text}`;
        return text === '' ? [] : [{ type: 'reasoning-delta', delta: text }];
      }
      case 'signature_delta':
        block['signature'] = delta['signature'];
        return [];
      case 'citations_delta':
        block['citations'] = [
          ...(Array.isArray(block['citations']) ? (block['citations'] as unknown[]) : []),
          delta['citation'],
        ];
        return [];
      case 'input_json_delta':
        return this.#inputDelta(Number(event['index']), block, String(delta['partial_json']));
      default:
        return [];
    }
  }

  #inputDelta(index: number, block: Mutable, piece: string): ProviderStreamPart[] {
    this.#json.set(index, `${this.#json.get(index) ?? ''}${piece}`);
    if (piece === '' || !this.#isClientCall(block)) return [];
    return [{ type: 'tool-arguments-delta', callId: String(block['id']), delta: piece }];
  }

  /** A finished block: its streamed JSON input parsed (kept as text when it does not parse). */
  #stop(index: number): void {
    const block = this.#blocks[index];
    const json = this.#json.get(index);
    if (block === undefined || json === undefined) return;
    this.#json.delete(index);
    if (json.trim() === '') {
      block['input'] = isBlock(block['input']) ? block['input'] : {};
      return;
    }
    try {
      block['input'] = JSON.parse(json) as unknown;
    } catch {
      block['input'] = json;
    }
  }

  /** `message_delta`: the stop reason and details, and the cumulative usage (counts replace earlier ones). */
  #messageDelta(event: Block): void {
    for (const [key, value] of Object.entries(objectOf(event['delta']))) {
      define(this.#message, key, value);
    }
    const usage: Mutable = { ...objectOf(this.#message['usage']) };
    for (const [key, value] of Object.entries(objectOf(event['usage']))) {
      if (value !== null) define(usage, key, value);
    }
    this.#message['usage'] = usage;
  }

  #isClientCall(block: Block): boolean {
    return block['type'] === 'tool_use' && block['name'] !== this.#outputTool;
  }
}

/** `value` when it is a JSON object, else an empty one. */
function objectOf(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** Sets a key of provider JSON as data (a `__proto__` key stays an own property). */
function define(target: Mutable, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
