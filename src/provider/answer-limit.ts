import { PromptEvaluationError } from '../core/errors/prompt-evaluation-error.js';
import type { ProviderTurn } from './conversation.js';
import type { ProviderRequest } from './provider-request.js';
import type { ProviderStreamPart } from './provider-stream-part.js';

/**
 * The default of `maxAnswerChars` (`RuntimeOptions`, `EvaluateOptions`): 4 Mi
 * (4,194,304) characters of text, reasoning and tool-call arguments in one
 * turn, about eight times what a model that writes 128k output tokens can
 * send. A larger answer fails its turn (docs/guide/guarantees.md).
 */
export const DEFAULT_MAX_ANSWER_CHARS = 4 * 1024 * 1024;

/** What a whole answer's body may spend on JSON around the counted characters. */
const BODY_ALLOWANCE = 1024 * 1024;

/**
 * The most bytes the body of a whole (not streamed) answer of at most
 * `maxAnswerChars` characters can take: 4 bytes per character (UTF-8 or a
 * JSON escape) plus 1 MiB of JSON around them. `readJsonBody` stops reading a
 * body past it, so an oversized answer is never held whole.
 */
export function answerBodyBytes(maxAnswerChars: number): number {
  return maxAnswerChars * 4 + BODY_ALLOWANCE;
}

/**
 * The error of an answer that passed `maxAnswerChars`: a `PromptEvaluationError`
 * (phase `response`) naming the limit, its option and the fix. `found` says
 * what was seen (e.g. `more than 4194304 characters`), `providerPayload` what
 * to keep for diagnosis.
 */
export function answerTooLarge(
  prompt: string,
  maxAnswerChars: number,
  found: string,
  providerPayload: Record<string, unknown> = {},
): PromptEvaluationError {
  return new PromptEvaluationError(
    `The provider's answer is over maxAnswerChars (${maxAnswerChars} characters of text, reasoning ` +
      `and tool-call arguments in one turn): ${found}. The request was stopped and the turn failed. ` +
      'Fix: raise maxAnswerChars (installAffordance() or evaluate() options) if answers this long are ' +
      "expected, or have the model answer shorter (e.g. lower the adapter's max output tokens).",
    {
      phase: 'response',
      prompt,
      providerPayload: Object.assign({ maxAnswerChars }, providerPayload),
    },
  );
}

/**
 * The characters of `turn` that `maxAnswerChars` counts: its text and the
 * arguments of its tool calls as the provider sent them (text; arguments an
 * adapter already decoded count nothing here, their body was bounded when read).
 */
export function answerChars(turn: ProviderTurn): number {
  let chars = typeof turn.text === 'string' ? turn.text.length : 0;
  for (const call of turn.toolCalls ?? []) {
    if (typeof call.arguments === 'string') chars += call.arguments.length;
  }
  return chars;
}

/**
 * Throws {@link answerTooLarge}'s error when `turn` carries more than
 * `request.maxAnswerChars` characters (see {@link answerChars}); does nothing
 * when the request sets no limit. An adapter calls it on a whole answer before
 * returning it.
 */
export function checkAnswerSize(
  turn: ProviderTurn,
  request: Pick<ProviderRequest, 'prompt' | 'maxAnswerChars'>,
): void {
  const limit = request.maxAnswerChars;
  if (limit === undefined) return;
  const chars = answerChars(turn);
  if (chars > limit) {
    throw answerTooLarge(request.prompt.label, limit, `the turn carries ${chars} characters`, {
      chars,
    });
  }
}

/**
 * Counts the characters of a streamed answer as its deltas arrive (text,
 * reasoning and tool-call arguments) and throws {@link answerTooLarge}'s
 * error at the first delta that passes the limit, so the reader can stop the
 * request there instead of after the whole answer.
 */
export class AnswerMeter {
  readonly #limit: number;
  readonly #prompt: string;
  #chars = 0;

  /** @param limit `maxAnswerChars`; `undefined` counts nothing. */
  constructor(limit: number | undefined, prompt: string) {
    this.#limit = limit ?? Infinity;
    this.#prompt = prompt;
  }

  /** Adds the characters of `part` (a delta) and throws once they are over the limit. */
  count(part: ProviderStreamPart): void {
    if (
      part.type !== 'text-delta' &&
      part.type !== 'reasoning-delta' &&
      part.type !== 'tool-arguments-delta'
    ) {
      return;
    }
    this.#chars += part.delta.length;
    if (this.#chars > this.#limit) {
      throw answerTooLarge(
        this.#prompt,
        this.#limit,
        `more than ${this.#limit} characters had streamed in`,
        { chars: this.#chars },
      );
    }
  }
}
