import type { AffordanceError, AffordanceErrorCode } from './affordance-error.js';
import { PromptEvaluationError } from './prompt-evaluation-error.js';

/** Why the loop governor stopped an evaluation. */
export type LoopStopReason = 'repeated-failure' | 'no-progress';

/** Fields of a {@link LoopStoppedError}. */
export interface LoopStoppedErrorOptions {
  /** Why the governor stopped the evaluation. */
  readonly reason: LoopStopReason;
  /** The prompt being evaluated (`ns/key`). */
  readonly prompt?: string | undefined;
  /** The tool whose call kept failing (`repeated-failure` only). */
  readonly tool?: string | undefined;
  /** How many provider requests the evaluation had made when it stopped. */
  readonly turns: number;
}

/**
 * The loop governor stopped an evaluation whose model kept repeating a
 * failing call or made no progress after it was told so once (see
 * `LoopGovernorOptions`). A `PromptEvaluationError` of phase `governor`:
 * handle it where you handle the others, or switch on `reason`.
 */
export class LoopStoppedError extends PromptEvaluationError {
  /** Why the governor stopped the evaluation. */
  readonly reason: LoopStopReason;
  /** The tool whose call kept failing, for `repeated-failure`. */
  readonly tool: string | undefined;
  /** How many provider requests the evaluation had made. */
  readonly turns: number;

  constructor(message: string, options: LoopStoppedErrorOptions) {
    super(message, { phase: 'governor', prompt: options.prompt });
    this.reason = options.reason;
    this.tool = options.tool;
    this.turns = options.turns;
  }

  /**
   * Whether `value` is a `LoopStoppedError` (from any copy of affordance): a
   * `PromptEvaluationError` of phase `governor`.
   */
  static override is<T extends abstract new (...args: never[]) => AffordanceError>(
    this: T & { readonly errorCode: AffordanceErrorCode | undefined },
    value: unknown,
  ): value is InstanceType<T> {
    return PromptEvaluationError.is(value) && value.phase === 'governor';
  }
}
