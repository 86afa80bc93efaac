import { AffordanceError, type AffordanceErrorCode } from './affordance-error.js';

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

function formatIssues(issues: readonly ToolValidationIssue[]): string {
  return issues
    .map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`))
    .join('; ');
}

/**
 * Tool arguments (or a handler's own checks) were rejected. The message lists
 * every problem with its field path; the runtime returns it to the model as
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
