import { ConfigurationError } from '../core/errors/configuration-error.js';

/** What a {@link PolicyDecision} says about a call. */
export type PolicyVerdict = 'allow' | 'deny' | 'approval';

/**
 * A tool policy's answer for one call: let it run, refuse it (the model reads
 * why and what would allow it), or let it run only once a person approves.
 * Build one with {@link PolicyDecision.allow}, {@link PolicyDecision.deny} or
 * {@link PolicyDecision.requireApproval}.
 */
export class PolicyDecision {
  /** The verdict. */
  readonly verdict: PolicyVerdict;
  /** Why the call is refused or needs approval; empty for `allow`. */
  readonly reason: string;
  /** What would allow a refused call, told to the model with the reason. */
  readonly allowWhen: string | undefined;

  private constructor(verdict: PolicyVerdict, reason: string, allowWhen: string | undefined) {
    this.verdict = verdict;
    this.reason = reason;
    this.allowWhen = allowWhen;
    Object.freeze(this);
  }

  static readonly #allowed = new PolicyDecision('allow', '', undefined);

  /** The call may run. */
  static allow(): PolicyDecision {
    return PolicyDecision.#allowed;
  }

  /**
   * The call is refused: it fails with `reason` (and `allowWhen`, what would
   * allow it) as the message the model reads.
   * @example PolicyDecision.deny('write_file needs a prior read_file of notes.md.', 'Call read_file for notes.md first.')
   */
  static deny(reason: string, allowWhen?: string): PolicyDecision {
    return new PolicyDecision(
      'deny',
      requiredText(reason, 'deny'),
      emptyToUndefined(allowWhen?.trim()),
    );
  }

  /**
   * The call may run once a person approves it: the evaluation pauses with the
   * call pending and `reason` shown to the approver.
   */
  static requireApproval(reason: string): PolicyDecision {
    return new PolicyDecision('approval', requiredText(reason, 'requireApproval'), undefined);
  }
}

function requiredText(text: unknown, method: string): string {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new ConfigurationError({
      subject: `PolicyDecision.${method}(reason)`,
      problem: `the reason is ${typeof text === 'string' ? 'empty' : typeof text}.`,
      fix: 'Give a sentence saying why: the model (for a denial) or the approver reads it.',
    });
  }
  return text.trim();
}

function emptyToUndefined(text: string | undefined): string | undefined {
  return text === '' ? undefined : text;
}
