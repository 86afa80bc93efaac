import { AffordanceError, type AffordanceErrorCode } from './affordance-error.js';

/** Fields of a {@link PromptOverridesError}. */
export interface PromptOverridesErrorOptions {
  /** The override file or entry concerned, if any. */
  readonly location?: string | undefined;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/** A prompt override store could not read, write or apply an override. */
export class PromptOverridesError extends AffordanceError {
  static override readonly errorCode: AffordanceErrorCode = 'prompt_overrides';

  /** The override file or entry concerned, if any. */
  readonly location: string | undefined;

  constructor(message: string, options: PromptOverridesErrorOptions = {}) {
    super(
      'prompt_overrides',
      options.location === undefined ? message : `${options.location}: ${message}`,
      options,
    );
    this.location = options.location;
  }
}
