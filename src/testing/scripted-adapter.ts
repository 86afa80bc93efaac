import { TokenUsage, type TokenUsageInit } from '../provider/token-usage.js';
import type { Prompt } from '../prompt/prompt.js';
import type { AffordanceRuntime } from '../runtime/affordance-runtime.js';
import type { ProviderToolCall, ProviderTurn } from '../provider/conversation.js';
import type { EvaluateOptions } from '../runtime/evaluate-options.js';
import type { PromptResponse } from '../runtime/prompt-response.js';
import { ProviderAdapter } from '../provider/provider-adapter.js';
import type { ProviderRequest } from '../provider/provider-request.js';
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

/**
 * A deterministic provider for tests and offline examples: answers each
 * request with the next scripted turn, records every request, and fails
 * loudly (`ScriptMismatchError`) when the conversation asks for more turns than
 * scripted, when a turn's `expect` rejects the request, or when an outermost
 * evaluation ends with turns left over.
 *
 * @example
 * const adapter = new ScriptedAdapter(runtime, [
 *   { toolCalls: [{ name: 'lookup_entity', arguments: { entityId: 'acme-42' } }] },
 *   { text: 'acme-42 is documented at https://docs.example.test/acme-42.' },
 * ]);
 */
export class ScriptedAdapter extends ProviderAdapter {
  override readonly name: string = 'scripted';
  /** Every request received, in order (nested evaluations included). */
  readonly requests: ProviderRequest[] = [];
  readonly #turns: ScriptedTurn[];
  readonly #usage = new Map<string, TokenUsage>();
  #depth = 0;

  constructor(runtime: AffordanceRuntime, turns: readonly ScriptedTurn[]) {
    super(runtime);
    this.#turns = [...turns];
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

  override async evaluate<O>(
    prompt: Prompt<O>,
    options: EvaluateOptions = {},
  ): Promise<PromptResponse<O>> {
    this.#depth += 1;
    let response: PromptResponse<O>;
    try {
      response = await super.evaluate(prompt, options);
    } finally {
      this.#depth -= 1;
    }
    if (this.#depth === 0) this.assertDone();
    return response;
  }

  override request(request: ProviderRequest): Promise<ProviderTurn> {
    this.requests.push(request);
    const turn = this.#turns.shift();
    if (turn === undefined) {
      return Promise.reject(
        new ScriptMismatchError(
          `Request #${this.requests.length} (turn ${request.turn} of prompt '${request.rendered.ns}/${request.rendered.key}') ` +
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
    let usage: TokenUsage | undefined;
    if (turn.usage !== undefined) {
      const previous = this.#usage.get(request.evaluationId);
      usage =
        previous === undefined
          ? new TokenUsage(turn.usage)
          : previous.plus(new TokenUsage(turn.usage));
      this.#usage.set(request.evaluationId, usage);
    } else {
      usage = this.#usage.get(request.evaluationId);
    }
    return Promise.resolve({
      text: turn.text ?? null,
      toolCalls,
      parsed: turn.parsed,
      usage,
      raw: turn,
    });
  }
}

function describeLast(request: ProviderRequest): string {
  const last = request.messages.at(-1);
  if (last === undefined) return 'none';
  if (last.role === 'tool')
    return `tool result of '${last.name}': ${JSON.stringify(last.content.slice(0, 120))}`;
  return `${last.role} message`;
}
