import type { MediaPart } from '../content/content-part.js';
import type { ProviderAdapter } from '../provider/provider-adapter.js';
import type { Prompt } from '../prompt/prompt.js';
import type { RenderedPrompt } from '../prompt/rendered-prompt.js';
import type { Filesystem } from '../resources/filesystem.js';
import type { ResourceResolver } from '../resources/resource-binding.js';
import type { Session } from '../session/session.js';
import type { SessionView } from '../session/slice-view.js';
import type { EvaluateOptions } from './evaluate-options.js';
import type { BudgetTracker } from './limits/budget-tracker.js';
import type { Deadline } from './limits/deadline.js';
import type { PromptResponse } from './prompt-response.js';

/** Runs a nested evaluation on the runtime and adapter of the current one. */
export type NestedEvaluate = <O>(
  prompt: Prompt<O>,
  options?: EvaluateOptions,
) => Promise<PromptResponse<O>>;

/** How far a running tool call has got (`context.reportProgress`); MCP sends it as a progress notification. */
export interface ToolProgress {
  /** The work done so far; it should grow with each report. */
  readonly progress: number;
  /** The whole work, when known. */
  readonly total?: number | undefined;
  /** What the tool is doing, for a person. */
  readonly message?: string | undefined;
}

/** The members the runtime adds to every {@link ToolContext}: the evaluation the call belongs to. */
export interface ToolContextMembers {
  /** The id of the evaluation the call belongs to (shared by its events). */
  readonly evaluationId: string;
  /** The prompt being evaluated. */
  readonly prompt: Prompt;
  /** The prompt as rendered for this evaluation (its text and tools). */
  readonly renderedPrompt: RenderedPrompt;
  /** The evaluation's session: read state with `session.slice(Cls)`, dispatch events with `session.dispatch`. */
  readonly session: Session;
  /**
   * The evaluation's session, read-only (`slice(Cls)` views, `sessionId`,
   * `tags`; no `dispatch`): hand it to code that should read state but never
   * change it.
   */
  readonly sessionView: SessionView;
  /** The evaluation's deadline, if one was set. */
  readonly deadline: Deadline | undefined;
  /** Token usage and limits of the evaluation, if a budget was set. */
  readonly budgetTracker: BudgetTracker | undefined;
  /** Resources of this tool call (evaluation singletons and call-scoped ones). */
  readonly resources: ResourceResolver;
  /** The evaluation's filesystem resource, if one is bound. */
  readonly filesystem: Filesystem | undefined;
  /** The adapter answering for the evaluation. */
  readonly adapter: ProviderAdapter;
  /**
   * Runs a nested evaluation with the same runtime and adapter (pass
   * `options.adapter` for another):
   * `context.evaluate(child, { session: context.session, deadline: context.deadline })`.
   */
  readonly evaluate: NestedEvaluate;
  /**
   * Reports how far the call has got. It reaches a caller that listens (an MCP
   * client that asked for progress, `callTool`'s `onProgress`); otherwise it
   * does nothing. Never throws.
   */
  readonly reportProgress: (progress: ToolProgress) => void;
  /**
   * The media part a `@MediaReference` field of the params names (pass the
   * field's value): resolved, with its bytes from the runtime's `BlobStore`,
   * before the handler ran.
   * @throws ToolValidationError when `reference` is not the value of such a field.
   */
  readonly media: (reference: string) => MediaPart;
}

declare module '../tools/tool-context.js' {
  // Merges the evaluation's members into the ToolContext the tools layer declares.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ToolContext extends ToolContextMembers {}
}
