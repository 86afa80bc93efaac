import {
  isPlainObject,
  type ProviderStreamPart,
  type ProviderTurn,
  type StreamReader,
} from '../../provider/index.js';
import { type AiSdkAnswer, readAiSdkTurn } from '../turn/read-ai-sdk-turn.js';

type Json = Record<string, unknown>;

/** A stream that ended before its `finish` part: cut off, so retried while nothing was delivered. */
export class AiSdkStreamEndedError extends Error {
  override readonly name = 'AiSdkStreamEndedError';
}

/** An `error` part of an AI SDK stream (a chunk the provider package could not read, an error event). */
export class AiSdkStreamErrorPart extends Error {
  override readonly name = 'AiSdkStreamErrorPart';
  constructor(readonly error: unknown) {
    super(
      error instanceof Error
        ? error.message
        : `the stream carried an error part: ${(JSON.stringify(error) as string | undefined) ?? String(error)}`,
      { cause: error },
    );
  }
}

/**
 * Reads the parts of one AI SDK stream (`doStream`) into neutral parts: text
 * and reasoning deltas, each client-side tool call's start and argument
 * pieces (a call that arrives whole gets its start and its arguments at
 * once), and at the end the turn, gathered into the same answer `doGenerate`
 * gives so it reads exactly as `request()` reads it.
 */
export class AiSdkStreamReader implements StreamReader {
  readonly #provider: string;
  readonly #modelId: string;
  readonly #content: Json[] = [];
  /** Text and reasoning parts still open, by their stream id. */
  readonly #open = new Map<string, Json>();
  /** Tool calls whose start was yielded. */
  readonly #started = new Set<string>();
  /** Input ids of provider-executed calls: their pieces are not shown. */
  readonly #providerInputs = new Set<string>();
  #finish: Json | undefined;
  #response: Json = {};
  #warnings: unknown;

  constructor(provider: string, modelId: string) {
    this.#provider = provider;
    this.#modelId = modelId;
  }

  read(event: unknown): readonly ProviderStreamPart[] {
    if (!isPlainObject(event)) return [];
    switch (event['type']) {
      case 'text-start':
      case 'reasoning-start':
        this.#startPart(event);
        return [];
      case 'text-delta':
        return this.#delta(event, 'text', 'text-delta');
      case 'reasoning-delta':
        return this.#delta(event, 'reasoning', 'reasoning-delta');
      case 'text-end':
      case 'reasoning-end':
        this.#endPart(event);
        return [];
      case 'tool-input-start':
        return this.#inputStart(event);
      case 'tool-input-delta': {
        const id = String(event['id']);
        if (this.#providerInputs.has(id) || !this.#started.has(id)) return [];
        return [{ type: 'tool-arguments-delta', callId: id, delta: String(event['delta']) }];
      }
      case 'tool-call':
        return this.#toolCall(event);
      case 'tool-result':
        this.#content.push(event);
        return [];
      case 'stream-start':
        this.#warnings = event['warnings'];
        return [];
      case 'response-metadata':
        this.#response = { ...this.#response, ...event };
        return [];
      case 'finish':
        this.#finish = event;
        return [];
      case 'error':
        throw new AiSdkStreamErrorPart(event['error']);
      default:
        return [];
    }
  }

  readError(thrown: unknown): unknown {
    return thrown;
  }

  end(): ProviderTurn {
    const finish = this.#finish;
    if (finish === undefined) {
      throw new AiSdkStreamEndedError(
        `The ${this.#provider} stream ended before its finish part (the connection was cut off).`,
      );
    }
    for (const part of this.#open.values()) this.#content.push(part);
    this.#open.clear();
    const answer: AiSdkAnswer = {
      content: this.#content.filter((part) => part['type'] !== 'text' || part['text'] !== ''),
      finishReason: finish['finishReason'],
      usage: finish['usage'],
      providerMetadata: finish['providerMetadata'],
      response: this.#response,
      warnings: this.#warnings,
    };
    return readAiSdkTurn(answer, this.#provider, this.#modelId);
  }

  #startPart(event: Json): void {
    const type = event['type'] === 'text-start' ? 'text' : 'reasoning';
    const part: Json = { type, text: '' };
    if (event['providerMetadata'] !== undefined)
      part['providerMetadata'] = event['providerMetadata'];
    this.#open.set(`${type}:${String(event['id'])}`, part);
    // Placed when it starts, so parts keep the order the model gave them.
    this.#content.push(part);
  }

  #delta(
    event: Json,
    type: string,
    partType: 'text-delta' | 'reasoning-delta',
  ): ProviderStreamPart[] {
    const key = `${type}:${String(event['id'])}`;
    let part = this.#open.get(key);
    if (part === undefined) {
      part = { type, text: '' };
      this.#open.set(key, part);
      this.#content.push(part);
    }
    const delta = String(event['delta']);
    part['text'] = String(part['text']) + delta;
    if (event['providerMetadata'] !== undefined)
      part['providerMetadata'] = event['providerMetadata'];
    return delta === '' ? [] : [{ type: partType, delta }];
  }

  #endPart(event: Json): void {
    const type = event['type'] === 'text-end' ? 'text' : 'reasoning';
    const key = `${type}:${String(event['id'])}`;
    const part = this.#open.get(key);
    if (part !== undefined && event['providerMetadata'] !== undefined) {
      part['providerMetadata'] = event['providerMetadata'];
    }
    this.#open.delete(key);
  }

  #inputStart(event: Json): ProviderStreamPart[] {
    const id = String(event['id']);
    if (event['providerExecuted'] === true) {
      this.#providerInputs.add(id);
      return [];
    }
    this.#started.add(id);
    return [{ type: 'tool-call-start', callId: id, name: String(event['toolName']) }];
  }

  #toolCall(event: Json): ProviderStreamPart[] {
    this.#content.push(event);
    const callId = String(event['toolCallId']);
    if (event['providerExecuted'] === true || this.#started.has(callId)) return [];
    this.#started.add(callId);
    const input = typeof event['input'] === 'string' ? event['input'] : '';
    const parts: ProviderStreamPart[] = [
      { type: 'tool-call-start', callId, name: String(event['toolName']) },
    ];
    if (input !== '') parts.push({ type: 'tool-arguments-delta', callId, delta: input });
    return parts;
  }
}
