import { AffordanceError, type AffordanceErrorCode } from './affordance-error.js';

/** Fields of a {@link ConfigurationError}. */
export interface ConfigurationErrorOptions {
  /** What is misconfigured, e.g. `GuidanceSection.lookup` or `LookupParams`. */
  readonly subject: string;
  /** What went wrong, as one sentence. */
  readonly problem: string;
  /** How to fix it, as one or more sentences. */
  readonly fix: string;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/**
 * Misuse of decorators, metadata or wiring, found while classes are decorated
 * or read. The message names the subject, the problem and the fix.
 */
export class ConfigurationError extends AffordanceError {
  static override readonly errorCode: AffordanceErrorCode = 'configuration';

  /** What is misconfigured. */
  readonly subject: string;
  /** What went wrong. */
  readonly problem: string;
  /** How to fix it. */
  readonly fix: string;

  constructor(options: ConfigurationErrorOptions) {
    super('configuration', `${options.subject}: ${options.problem} Fix: ${options.fix}`, options);
    this.subject = options.subject;
    this.problem = options.problem;
    this.fix = options.fix;
  }
}
