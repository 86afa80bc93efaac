import {
  checkAnswerSize,
  partsOfTurn,
  providerCapabilities,
  ProviderAdapter,
  type ProviderCapabilities,
  type ProviderRequest,
  type ProviderStreamPart,
  type ProviderToolCall,
  type ProviderTurn,
  TokenUsage,
  type TokenUsageInit,
} from '../provider/index.js';
import { ScriptMismatchError } from './script-mismatch-error.js';

/** One scripted tool call; `arguments` may be an object (sent as JSON text) or raw text (sent as is). */
export interface ScriptedToolCall {
  /** The tool the scripted model calls. */
  readonly name: string;
  /** The arguments: an object is JSON-encoded; a string is sent verbatim (to script malformed JSON). */
  readonly arguments?: unknown;
  /** The call id; `call_<request>_<index>` by default. */
  readonly callId?: string;
}

/** One scripted model turn: what the "model" answers to the next request. */
export interface ScriptedTurn {
  /** The assistant text. For a structured-output prompt, JSON text is parsed like a real answer. */
  readonly text?: string;
  /** Tool calls; omit (or leave empty) for a final answer. */
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** A structured answer as a provider would decode it (`json_schema` output). */
  readonly parsed?: unknown;
  /** Token usage of this turn (added up over the evaluation). */
  readonly usage?: TokenUsageInit;
  /**
   * Checks the request this turn answers (e.g. the previous tool messages);
   * throw to fail. Runs before the turn is returned.
   */
  readonly expect?: (request: ProviderRequest) => void;
}

/** Options of a {@link ScriptedAdapter}. */
export interface ScriptedAdapterOptions {
  /**
   * When streaming, how long to wait before each delta (milliseconds; 0 by
   * default), so a page or a test sees the answer grow over time. The wait
   * ends early when the request is cancelled.
   */
  readonly deltaDelayMs?: number;
}

/** Text pieces a scripted stream sends: each word with the spaces after it. */
const WORDS = /\S+\s*|\s+/g;
/** How many characters of tool arguments a scripted stream sends per delta. */
const ARGUMENT_PIECE = 16;

/**
 * A deterministic provider for tests and offline examples: answers each
 * request with the next scripted turn, records every request, and fails
 * loudly (`ScriptMismatchError`) when the conversation asks for more turns than
 * scripted, or when a turn's `expect` rejects the request; `assertDone()`
 * fails when turns are left over (`createTestRuntime(...).evaluate` calls it
 * after each evaluation). It streams (`runtime.stream`): each scripted text
 * arrives word by word, each call's arguments in small pieces. Like every adapter it keeps no evaluation's state:
 * only the script and the requests it received.
 *
 * @example
 * const adapter = new ScriptedAdapter([
 *   { toolCalls: [{ name: 'lookup_entity', arguments: { entityId: 'acme-42' } }] },
 *   { text: 'acme-42 is documented at https://docs.example.test/acme-42.' },
 * ]);
 * await runtime.evaluate(prompt, { adapter });
 * adapter.assertDone();
 */
export class ScriptedAdapter extends ProviderAdapter {
  override readonly name: string = 'scripted';
  /** Standard (non-strict) tool schemas, no native tools, parallel calls, structured output read from text, streaming. */
  override readonly capabilities: ProviderCapabilities = providerCapabilities({ streaming: true });
  /** Every request received, in order (nested evaluations included). */
  readonly requests: ProviderRequest[] = [];
  readonly #turns: ScriptedTurn[];
  readonly #deltaDelayMs: number;

  constructor(turns: readonly ScriptedTurn[], options: ScriptedAdapterOptions = {}) {
    super();
    this.#turns = [...turns];
    const delay = options.deltaDelayMs ?? 0;
    if (!Number.isFinite(delay) || delay < 0) {
      throw new RangeError(
        `ScriptedAdapter: deltaDelayMs must be a finite number of milliseconds >= 0, got ${String(delay)}.`,
      );
    }
    this.#deltaDelayMs = delay;
  }

  /** How many scripted turns have not been requested yet. */
  get remaining(): number {
    return this.#turns.length;
  }

  /** Adds turns to the end of the script. */
  push(...turns: ScriptedTurn[]): void {
    this.#turns.push(...turns);
  }

  /** Throws unless every scripted turn was used. */
  assertDone(): void {
    if (this.#turns.length > 0) {
      throw new ScriptMismatchError(
        `${this.#turns.length} scripted turn(s) were never requested (after ${this.requests.length} request(s)). ` +
          'The model loop ended earlier than the script expects: check that earlier turns call tools, or drop the extra turns.',
      );
    }
  }

  override request(request: ProviderRequest): Promise<ProviderTurn> {
    this.requests.push(request);
    const turn = this.#turns.shift();
    if (turn === undefined) {
      return Promise.reject(
        new ScriptMismatchError(
          `Request #${this.requests.length} (turn ${request.turn} of prompt '${request.prompt.label}') ` +
            'has no scripted answer: the script ran out. Add a turn, or check why the model loop continued ' +
            `(last message: ${describeLast(request)}).`,
        ),
      );
    }
    turn.expect?.(request);
    const index = this.requests.length;
    const toolCalls: ProviderToolCall[] = (turn.toolCalls ?? []).map((call, position) => ({
      callId: call.callId ?? `call_${index}_${position + 1}`,
      name: call.name,
      arguments:
        call.arguments === undefined
          ? '{}'
          : typeof call.arguments === 'string'
            ? call.arguments
            : JSON.stringify(call.arguments),
    }));
    const answer: ProviderTurn = {
      text: turn.text ?? null,
      toolCalls,
      parsed: turn.parsed,
      usage: turn.usage === undefined ? undefined : new TokenUsage(turn.usage),
      finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      raw: turn,
    };
    try {
      // A scripted answer over maxAnswerChars fails as a provider's would (docs/guide/guarantees.md).
      checkAnswerSize(answer, request);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return Promise.resolve(answer);
  }

  /**
   * Answers like {@link ScriptedAdapter.request}, as a stream: the text word by
   * word and each call's arguments in pieces (each after `deltaDelayMs`), then
   * the turn. Stops early, without its turn, when the request is cancelled.
   */
  override async *stream(
    request: ProviderRequest,
  ): AsyncGenerator<ProviderStreamPart, void, undefined> {
    const turn = await this.request(request);
    for (const part of scriptedParts(turn)) {
      if (part.type !== 'turn') await pause(this.#deltaDelayMs, request.signal);
      if (request.signal.aborted) {
        throw new Error('The scripted request was cancelled.', { cause: request.signal.reason });
      }
      yield part;
    }
  }
}

/** The parts of a scripted turn as a stream sends them: text word by word, arguments in pieces. */
function scriptedParts(turn: ProviderTurn): ProviderStreamPart[] {
  const parts: ProviderStreamPart[] = [];
  for (const part of partsOfTurn(turn)) {
    if (part.type === 'text-delta') {
      for (const word of part.delta.match(WORDS) ?? [])
        parts.push({ type: 'text-delta', delta: word });
    } else if (part.type === 'tool-arguments-delta') {
      for (let start = 0; start < part.delta.length; start += ARGUMENT_PIECE) {
        const delta = part.delta.slice(start, start + ARGUMENT_PIECE);
        parts.push({ type: 'tool-arguments-delta', callId: part.callId, delta });
      }
    } else {
      parts.push(part);
    }
  }
  return parts;
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms === 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function describeLast(request: ProviderRequest): string {
  const last = request.messages.at(-1);
  if (last === undefined) return 'none';
  if (last.role === 'tool')
    return `tool result of '${last.name}': ${JSON.stringify(last.content.slice(0, 120))}`;
  return `${last.role} message`;
}
