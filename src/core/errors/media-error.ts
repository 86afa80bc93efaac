import { AffordanceError, type AffordanceErrorCode } from './affordance-error.js';

/** A limit a {@link MediaError} reports as exceeded: its name, its value and what was asked for. */
export interface MediaLimitBreach {
  /** The limit's name, e.g. `maxBytesPerPart` or `images per request`. */
  readonly name: string;
  /** The limit. */
  readonly limit: number;
  /** What the refused input has (bytes, parts, pixels...). */
  readonly actual: number;
  /** The provider whose published limit this is, when it is one (`openai`, `anthropic`...). */
  readonly provider?: string | undefined;
}

/** Fields of a {@link MediaError}. */
export interface MediaErrorOptions {
  /** What was refused, e.g. `Media.image` or `the image part 2 of the input`. */
  readonly subject: string;
  /** What is wrong, as one sentence. */
  readonly problem: string;
  /** How to fix it, as one or more sentences. */
  readonly fix: string;
  /** The exceeded limit, when a limit refused the media. */
  readonly limit?: MediaLimitBreach | undefined;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/**
 * An image, document or audio part was refused: its bytes contradict its media
 * type, it is of a type nothing accepts, or it exceeds a limit (the library's
 * `MediaLimits` or a provider's published one, named in `limit`). Thrown before
 * anything is sent or recorded, so nothing is lost.
 */
export class MediaError extends AffordanceError {
  static override readonly errorCode: AffordanceErrorCode = 'media';

  /** What was refused. */
  readonly subject: string;
  /** What is wrong. */
  readonly problem: string;
  /** How to fix it. */
  readonly fix: string;
  /** The exceeded limit, if a limit refused the media. */
  readonly limit: MediaLimitBreach | undefined;

  constructor(options: MediaErrorOptions) {
    super('media', `${options.subject}: ${options.problem} Fix: ${options.fix}`, options);
    this.subject = options.subject;
    this.problem = options.problem;
    this.fix = options.fix;
    this.limit = options.limit;
  }
}
