import type { Clock } from '../core/clock.js';
import type { DataSchema } from '../schema/standard-schema.js';
import type { ConversationMessage, ToolChoice } from './conversation.js';
import type { ToolSpec } from './tool-spec.js';

/** The prompt a request belongs to, for names in requests and messages. */
export interface RequestPrompt {
  /** The prompt's name (`ns/key` unless it was given one). */
  readonly name: string;
  /** The prompt's namespace. */
  readonly ns: string;
  /** The prompt's key. */
  readonly key: string;
  /** `ns/key`: how errors and messages name the prompt. */
  readonly label: string;
}

/** The structured output a request asks for. */
export interface RequestOutput {
  /**
   * The output class (the element class of a list), or a Standard Schema;
   * `toJsonSchema`, `outputJsonSchema`, `normalizeStrictArguments` and
   * `parseStructuredOutput` take either.
   */
  readonly type: DataSchema;
  /** `array` when the prompt asks for a list of `type`. */
  readonly container: 'object' | 'array';
}

/** When a request must be done by; an adapter's retries never wait past it. */
export interface RequestDeadline {
  /** Whether the deadline has passed. */
  readonly expired: boolean;
  /** When it passes. */
  readonly expiresAt: Date;
  /** Milliseconds left (0 once passed). */
  remaining(): number;
}

/**
 * Everything an adapter needs to make one provider request, in neutral form:
 * the conversation (its first message is the rendered prompt, as `system`),
 * the tools with the schema the runtime chose, the tool choice, the output
 * format and the limits. An adapter keeps nothing of it after answering.
 */
export interface ProviderRequest {
  /** The prompt being evaluated. */
  readonly prompt: RequestPrompt;
  /** The conversation so far, oldest first; the first message is the rendered prompt. */
  readonly messages: readonly ConversationMessage[];
  /** The tools to offer, in order. */
  readonly tools: readonly ToolSpec[];
  /** The tool choice for this turn (a forced function resets to `auto` after it was used). */
  readonly toolChoice: ToolChoice;
  /** The structured output to ask for, if the prompt declares one. */
  readonly output: RequestOutput | undefined;
  /** 0 for the first request of the evaluation. */
  readonly turn: number;
  /** Id of the evaluation, for the provider's logs; an adapter keys no state by it. */
  readonly evaluationId: string;
  /** Fires at the deadline or on cancellation; pass it to the HTTP client. */
  readonly signal: AbortSignal;
  /** The evaluation's deadline, if any (retries must not sleep past it). */
  readonly deadline: RequestDeadline | undefined;
  /** The runtime's source of time, for retry delays. */
  readonly clock: Clock;
  /**
   * The most characters of text, reasoning and tool-call arguments the answer
   * may carry (`maxAnswerChars`; the runtime sets it on every request). An
   * adapter stops reading an answer that passes it and throws `answerTooLarge`'s
   * error: `readJsonBody` and `checkAnswerSize` do it for a whole answer; the
   * runtime counts a stream's deltas and stops the stream itself.
   */
  readonly maxAnswerChars?: number | undefined;
}
