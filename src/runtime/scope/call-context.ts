import type { MediaPart } from '../../content/content-part.js';
import type { ProviderAdapter } from '../../provider/provider-adapter.js';
import type { Prompt } from '../../prompt/prompt.js';
import type { RenderedPrompt } from '../../prompt/rendered-prompt.js';
import type { Filesystem } from '../../resources/filesystem.js';
import type { ResourceResolver } from '../../resources/resource-binding.js';
import type { Session } from '../../session/session.js';
import type { SessionView } from '../../session/slice-view.js';
import type { ServiceResolver, ToolContext } from '../../tools/tool-context.js';
import type { BudgetTracker } from '../limits/budget-tracker.js';
import type { Deadline } from '../limits/deadline.js';
import type { NestedEvaluate, ToolProgress } from '../tool-context-members.js';
import type { LazySignal } from './followed-signal.js';

/** What a {@link CallContext} is built from: the context's values, and the call's cancellation. @internal */
export type CallContextInit = Omit<ToolContext, 'signal'> & { readonly cancellation: LazySignal };

/**
 * The `ToolContext` of one call: frozen, its `signal` made on first read (a
 * getter of the class: an object literal with a getter, frozen, cost more
 * than the rest of the call's scope). @internal
 */
export class CallContext implements ToolContext {
  readonly callId: string;
  readonly services: ServiceResolver;
  readonly evaluationId: string;
  readonly prompt: Prompt;
  readonly renderedPrompt: RenderedPrompt;
  readonly session: Session;
  readonly sessionView: SessionView;
  readonly deadline: Deadline | undefined;
  readonly budgetTracker: BudgetTracker | undefined;
  readonly resources: ResourceResolver;
  readonly filesystem: Filesystem | undefined;
  readonly adapter: ProviderAdapter;
  readonly evaluate: NestedEvaluate;
  readonly reportProgress: (progress: ToolProgress) => void;
  readonly media: (reference: string) => MediaPart;
  readonly #cancellation: LazySignal;

  constructor(init: CallContextInit) {
    this.callId = init.callId;
    this.services = init.services;
    this.evaluationId = init.evaluationId;
    this.prompt = init.prompt;
    this.renderedPrompt = init.renderedPrompt;
    this.session = init.session;
    this.sessionView = init.sessionView;
    this.deadline = init.deadline;
    this.budgetTracker = init.budgetTracker;
    this.resources = init.resources;
    this.filesystem = init.filesystem;
    this.adapter = init.adapter;
    this.evaluate = init.evaluate;
    this.reportProgress = init.reportProgress;
    this.media = init.media;
    this.#cancellation = init.cancellation;
    Object.freeze(this);
  }

  /** Fires when the evaluation's deadline passes, the evaluation is cancelled, or the call's time limit passes. */
  get signal(): AbortSignal {
    return this.#cancellation.signal;
  }
}
