import { AffordanceError, type AffordanceErrorCode } from './affordance-error.js';
import { boundText } from './bound-text.js';

/** The most issues a {@link ToolValidationError} message lists; the rest are counted ("and 99 more"). */
export const MAX_LISTED_ISSUES = 20;
/** The most characters of one issue's path or message when a {@link ToolValidationError} lists several. */
export const MAX_ISSUE_TEXT_LENGTH = 300;
/** The most characters of the message of a {@link ToolValidationError} with a single issue. */
export const MAX_SINGLE_ISSUE_LENGTH = 2_000;

/** One problem with a tool's arguments: the field path (`address.zip`, `items[2].name`) and what is wrong. */
export interface ToolValidationIssue {
  /** Dotted field path; empty for a problem with the whole payload. */
  readonly path: string;
  /** What is wrong with the value at that path. */
  readonly message: string;
}

/** Fields of a {@link ToolValidationError}. */
export interface ToolValidationErrorOptions {
  /** Every problem found, all at once. */
  readonly issues?: readonly ToolValidationIssue[];
  /** The params class that was being parsed, if any. */
  readonly paramsType?: (abstract new (...args: never[]) => unknown) | undefined;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/**
 * The issues as one bounded line: the first {@link MAX_LISTED_ISSUES}, each
 * cut to {@link MAX_ISSUE_TEXT_LENGTH}, then how many more there are.
 */
function formatIssues(issues: readonly ToolValidationIssue[]): string {
  const max = issues.length === 1 ? MAX_SINGLE_ISSUE_LENGTH : MAX_ISSUE_TEXT_LENGTH;
  const listed = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => {
    const message = boundText(issue.message, max);
    return issue.path === '' ? message : `${boundText(issue.path, max)}: ${message}`;
  });
  const more = issues.length - listed.length;
  return more > 0 ? `${listed.join('; ')}; and ${more} more` : listed.join('; ');
}

/**
 * Tool arguments (or a handler's own checks) were rejected. The message lists
 * the problems with their field paths (the first {@link MAX_LISTED_ISSUES},
 * then a count; `issues` keeps them all); the runtime returns it to the model as
 * "Tool validation failed: <message>" so it can correct the call.
 * Throw it from a handler with a plain message for your own checks.
 */
export class ToolValidationError extends AffordanceError {
  static override readonly errorCode: AffordanceErrorCode = 'tool_validation';

  /** Every problem found; a single pathless issue when built from a plain message. */
  readonly issues: readonly ToolValidationIssue[];
  /** The params class that was being parsed, if any. */
  readonly paramsType: (abstract new (...args: never[]) => unknown) | undefined;

  /**
   * @param messageOrIssues a message for the model, or the list of issues to report.
   */
  constructor(
    messageOrIssues: string | readonly ToolValidationIssue[],
    options: ToolValidationErrorOptions = {},
  ) {
    const issues =
      typeof messageOrIssues === 'string'
        ? [{ path: '', message: messageOrIssues }]
        : messageOrIssues;
    super('tool_validation', formatIssues(issues), options);
    this.issues = issues;
    this.paramsType = options.paramsType;
  }
}
