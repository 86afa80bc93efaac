import { type AffordanceError, ConfigurationError } from '../../index.js';
import type { CassetteRequest } from './cassette-format.js';
import type { RequestDifference } from './request-diff.js';

/** How many differences the message lists. */
const LISTED = 8;

/** What a {@link CassetteMismatchError} reports. */
export interface CassetteMismatch {
  /** Where the cassette is (its path, or `in memory`). */
  readonly cassette: string;
  /** The request sent, as the cassette would record it. */
  readonly sent: CassetteRequest;
  /** The recorded request nearest to it, if the cassette has any. */
  readonly nearest?: { readonly index: number; readonly request: CassetteRequest } | undefined;
  /** How the nearest one differs from the one sent (empty when it was only replayed too often). */
  readonly differences: readonly RequestDifference[];
  /** When the same request was recorded, but fewer times than it was sent: how many times. */
  readonly recordedTimes?: number | undefined;
}

/**
 * A `ReplayAdapter` in `replay` mode got a request its cassette has no
 * answer for. The message lists how the nearest recorded request differs
 * from the one sent (which message, tool or field) and how to re-record.
 * A `ConfigurationError` (`code` `configuration`).
 */
export class CassetteMismatchError extends ConfigurationError {
  /** The request sent, as the cassette would record it. */
  readonly sent: CassetteRequest;
  /** The nearest recorded request and its position in the cassette (from 0), if any. */
  readonly nearest: { readonly index: number; readonly request: CassetteRequest } | undefined;
  /** How the nearest recorded request differs from the one sent. */
  readonly differences: readonly RequestDifference[];

  /**
   * Whether `value` is a cassette mismatch, from any copy of affordance (its
   * code is `configuration`, shared with every `ConfigurationError`, so the name is checked too).
   */
  static override is<T extends abstract new (...args: never[]) => AffordanceError>(
    this: T,
    value: unknown,
  ): value is InstanceType<T> {
    return (
      ConfigurationError.is(value) &&
      (value as { readonly name?: unknown }).name === 'CassetteMismatchError'
    );
  }

  constructor(mismatch: CassetteMismatch) {
    super({
      subject: `ReplayAdapter (cassette '${mismatch.cassette}')`,
      problem: problemOf(mismatch),
      fix:
        "re-record the cassette with a live adapter: mode 'record-missing' keeps the recorded answers and " +
        "records the requests missing, mode 'record' records everything again. Or undo the change that altered the request.",
    });
    this.name = 'CassetteMismatchError';
    // The differences are a list: the fix goes on a line of its own after it.
    this.message = `${this.subject}: ${this.problem}\nFix: ${this.fix}`;
    this.sent = mismatch.sent;
    this.nearest = mismatch.nearest;
    this.differences = mismatch.differences;
  }
}

function problemOf(mismatch: CassetteMismatch): string {
  const subject = `A request of prompt '${mismatch.sent.prompt}' (${mismatch.sent.messages.length} message(s))`;
  if (mismatch.recordedTimes !== undefined) {
    return (
      `${subject} was recorded ${mismatch.recordedTimes} time(s) and every recording was replayed already; ` +
      'it was sent once more.'
    );
  }
  if (mismatch.nearest === undefined)
    return `${subject} has no recorded answer: the cassette is empty.`;
  const lines = mismatch.differences
    .slice(0, LISTED)
    .map((difference) => `\n  - ${difference.path}: ${difference.description}`);
  const more =
    mismatch.differences.length > LISTED
      ? `\n  … and ${mismatch.differences.length - LISTED} more difference(s)`
      : '';
  return (
    `${subject} has no recorded answer. The nearest recorded request (interaction #${mismatch.nearest.index + 1}) ` +
    `differs in ${mismatch.differences.length} place(s):${lines.join('')}${more}`
  );
}
