import { AffordanceError, type AffordanceErrorCode } from './affordance-error.js';

/**
 * Where an evaluation stopped: building the request, reading the response,
 * running a tool, the budget, the loop governor (a `LoopStoppedError`) or a
 * guardrail (a `GuardrailError`).
 */
export type PromptEvaluationPhase =
  'request' | 'response' | 'tool' | 'budget' | 'governor' | 'guardrail';

/** Fields of a {@link PromptEvaluationError}. */
export interface PromptEvaluationErrorOptions {
  /** The phase in which evaluation stopped. */
  readonly phase: PromptEvaluationPhase;
  /** The prompt being evaluated (`ns/key`), if known. */
  readonly prompt?: string | undefined;
  /** The provider request or response involved, for diagnosis. */
  readonly providerPayload?: unknown;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/** Evaluation of a prompt stopped and cannot continue; the message says why and what to do. */
export class PromptEvaluationError extends AffordanceError {
  static override readonly errorCode: AffordanceErrorCode = 'prompt_evaluation';

  /** The phase in which evaluation stopped. */
  readonly phase: PromptEvaluationPhase;
  /** The prompt being evaluated (`ns/key`), if known. */
  readonly prompt: string | undefined;
  /** The provider request or response involved, if any. */
  readonly providerPayload: unknown;

  constructor(message: string, options: PromptEvaluationErrorOptions) {
    const subject =
      options.prompt === undefined ? '' : `Prompt '${options.prompt}' (${options.phase}): `;
    super('prompt_evaluation', subject + message, options);
    this.phase = options.phase;
    this.prompt = options.prompt;
    this.providerPayload = options.providerPayload;
  }
}
