import type { AffordanceError, AffordanceErrorCode } from './affordance-error.js';
import { PromptEvaluationError } from './prompt-evaluation-error.js';

/** Fields of a {@link GuardrailError}. */
export interface GuardrailErrorOptions {
  /** `input` (an `InputPolicy` refused the input) or `answer` (an `AnswerPolicy` failed the answer). */
  readonly stage: 'input' | 'answer';
  /** The policy's name. */
  readonly policy: string;
  /** The refusal's message (for the caller) or why the answer failed. */
  readonly reason: string;
  /** The prompt being evaluated (`ns/key`). */
  readonly prompt?: string | undefined;
}

/**
 * A guardrail stopped the evaluation: an `InputPolicy` refused the user's
 * input (no request was made; `reason` is the message for the caller), or an
 * `AnswerPolicy` failed the answer (or asked for more retries than
 * `maxAnswerRetries` allows). A `PromptEvaluationError` of phase `guardrail`.
 */
export class GuardrailError extends PromptEvaluationError {
  /** Which guardrail stopped the evaluation. */
  readonly stage: 'input' | 'answer';
  /** The policy's name. */
  readonly policy: string;
  /** The refusal's message, or why the answer failed. */
  readonly reason: string;

  constructor(message: string, options: GuardrailErrorOptions) {
    super(message, { phase: 'guardrail', prompt: options.prompt });
    this.stage = options.stage;
    this.policy = options.policy;
    this.reason = options.reason;
  }

  /** Whether `value` is a `GuardrailError` (from any copy of affordance). */
  static override is<T extends abstract new (...args: never[]) => AffordanceError>(
    this: T & { readonly errorCode: AffordanceErrorCode | undefined },
    value: unknown,
  ): value is InstanceType<T> {
    return PromptEvaluationError.is(value) && value.phase === 'guardrail';
  }
}
