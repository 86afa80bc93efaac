import { AffordanceError, type AffordanceErrorCode } from './affordance-error.js';

/** Fields of an {@link OutputParseError}. */
export interface OutputParseErrorOptions {
  /** The declared output class, if any. */
  readonly outputType?: (abstract new (...args: never[]) => unknown) | undefined;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/** The model's final answer could not be parsed into the prompt's declared output class. */
export class OutputParseError extends AffordanceError {
  static override readonly errorCode: AffordanceErrorCode = 'output_parse';

  /** The declared output class, if any. */
  readonly outputType: (abstract new (...args: never[]) => unknown) | undefined;

  constructor(message: string, options: OutputParseErrorOptions = {}) {
    const subject = options.outputType === undefined ? '' : `Output ${options.outputType.name}: `;
    super('output_parse', subject + message, options);
    this.outputType = options.outputType;
  }
}
