import type { MessageContent } from '../content/content-part.js';
import type { ProviderAdapter } from '../provider/provider-adapter.js';
import type { SectionVisibility } from '../prompt/section-visibility.js';
import type { PromptOverride } from '../prompt/overrides/prompt-override.js';
import type { ResourceRegistry } from '../resources/resource-registry.js';
import type { Session } from '../session/session.js';
import type { Budget } from './limits/budget.js';
import type { BudgetTracker } from './limits/budget-tracker.js';
import type { ToolChoice } from '../provider/conversation.js';
import type { Deadline } from './limits/deadline.js';
import type { EvaluationCheckpoint } from './evaluation-checkpoint.js';
import type { ResumeRequest } from './approval/resume-request.js';
import type { LoopGovernorOptions } from './governor/loop-governor-options.js';

/** Options of `runtime.evaluate(prompt, options)` (and of `context.evaluate` for nested evaluations). */
export interface EvaluateOptions {
  /**
   * The adapter that answers; by default the one bound to `ProviderAdapter` in
   * the runtime's container (for a nested evaluation: the enclosing one's).
   */
  readonly adapter?: ProviderAdapter | undefined;
  /** Params instances for the prompt's sections. */
  readonly params?: readonly object[] | undefined;
  /** The session to record events and state in; a new one when omitted. Pass the caller's to nest. */
  readonly session?: Session | undefined;
  /**
   * A user message sent after the prompt: text, or text and media parts in
   * order (`[Media.text('What is wrong?'), Media.image(png)]`). Media is
   * checked against the runtime's `media` limits, its bytes stored in the
   * container's `BlobStore`, and the `PromptRendered` event records it by
   * reference (`media`).
   */
  readonly input?: MessageContent | undefined;
  /** When the evaluation must end; tool calls and requests stop at it. */
  readonly deadline?: Deadline | undefined;
  /** Token limits; a tracker is created for them unless `budgetTracker` is given. */
  readonly budget?: Budget | undefined;
  /** A tracker shared with other evaluations (e.g. a parent's). */
  readonly budgetTracker?: BudgetTracker | undefined;
  /** Resources of the evaluation (e.g. a `Filesystem`); merged over the runtime's defaults. */
  readonly resources?: ResourceRegistry | undefined;
  /**
   * Section visibility by dotted path (`{ 'guide.billing': 'full' }`), over
   * the session's `SectionVisibilityOverride`s: e.g. a
   * `VisibilityExpansionRequired`'s `requestedOverrides`.
   */
  readonly visibility?: Readonly<Record<string, SectionVisibility>> | undefined;
  /** Prompt overrides to apply when rendering. */
  readonly overrides?: PromptOverride | undefined;
  /** The tool choice of the first request; defaults to `auto`. */
  readonly toolChoice?: ToolChoice | undefined;
  /** Stops the evaluation when it aborts. */
  readonly signal?: AbortSignal | undefined;
  /** The most provider requests the evaluation may make; defaults to the runtime's `maxTurns` (a resumed evaluation's: the one it started with). */
  readonly maxTurns?: number | undefined;
  /** The most characters one provider answer may carry; defaults to the runtime's `maxAnswerChars`. */
  readonly maxAnswerChars?: number | undefined;
  /**
   * Continue an evaluation that paused for approval instead of starting one
   * (what `runtime.resume` passes). Give the same `session` and `params`; a new
   * `deadline` applies to the resumed run only (the pause does not count).
   */
  readonly resume?: ResumeRequest | undefined;
  /**
   * Where the evaluation reports the points it can be recovered from (each
   * awaited), for a process that may die mid-evaluation; see
   * {@link EvaluationCheckpoint}. Nested evaluations do not inherit it.
   */
  readonly checkpoint?: EvaluationCheckpoint | undefined;
  /** The loop governor's settings for this evaluation, over the runtime's (`RuntimeOptions.governor`). */
  readonly governor?: LoopGovernorOptions | undefined;
}
