import type { ServiceIdentifier } from 'inversify';

import type { Prompt } from '../prompt/prompt.js';
import type { RenderedPrompt } from '../prompt/rendered-prompt.js';
import type { ResourceResolver } from '../resources/resource-binding.js';
import type { Filesystem } from '../resources/filesystem.js';
import type { BudgetTracker } from '../runtime/limits/budget-tracker.js';
import type { Deadline } from '../runtime/limits/deadline.js';
import type { ProviderAdapter } from '../provider/provider-adapter.js';
import type { Session } from '../session/session.js';

/** Resolves services from the container scope of the current tool call. */
export interface ServiceResolver {
  /** The instance bound to `id` in the current scope (application, evaluation or call). */
  get<T>(id: abstract new (...args: never[]) => T): T;
}

/**
 * Everything a tool handler receives besides its params: frozen, built for
 * one call and never reused. Also injectable: `@inject(ToolContext)` in a
 * section's constructor gives the current call's context.
 */
export interface ToolContext {
  /** The provider's id for this call. */
  readonly callId: string;
  /** Fires when the evaluation's deadline passes or the evaluation is cancelled. */
  readonly signal: AbortSignal;
  /** Services of the current call scope; decorated sections are resolved through it. */
  readonly services: ServiceResolver;
  /** The prompt being evaluated. */
  readonly prompt: Prompt;
  /** The prompt as rendered for this evaluation (its text and tools). */
  readonly renderedPrompt: RenderedPrompt;
  /** The evaluation's session: read state with `session.slice(Cls)`, dispatch events with `session.dispatch`. */
  readonly session: Session;
  /** The evaluation's deadline, if one was set. */
  readonly deadline: Deadline | undefined;
  /** Token usage and limits of the evaluation, if a budget was set. */
  readonly budgetTracker: BudgetTracker | undefined;
  /** Resources of this tool call (evaluation singletons and call-scoped ones). */
  readonly resources: ResourceResolver;
  /** The evaluation's filesystem resource, if one is bound. */
  readonly filesystem: Filesystem | undefined;
  /** The adapter running the evaluation; `context.adapter.evaluate(child, { session: context.session })` nests. */
  readonly adapter: ProviderAdapter;
}

/** Injection token of the current call's {@link ToolContext}, bound in each tool-call scope. */
export const ToolContext: ServiceIdentifier<ToolContext> = Symbol.for('affordance.tool-context');
