import { Container } from 'inversify';

import { Prompt } from '../../prompt/prompt.js';
import { RenderedPrompt } from '../../prompt/rendered-prompt.js';
import type { ResourceContext } from '../../resources/resource-context.js';
import { BudgetTracker } from '../limits/budget-tracker.js';
import { Deadline } from '../limits/deadline.js';
import { ProviderAdapter } from '../../provider/provider-adapter.js';
import type { RequestPrompt } from '../../provider/provider-request.js';
import type { ToolSpec } from '../../provider/tool-spec.js';
import type { SchemaProfile } from '../../schema/params-json-schema.js';
import type { ScopeRender } from './render-for-scope.js';
import type { NestedEvaluate, ToolProgress } from '../tool-context-members.js';
import { Session } from '../../session/session.js';
import { SectionVisibilityOverride } from '../../prompt/section-visibility.js';
import type { DirectConstruction } from './direct-construction.js';
import { FollowedSignal, type LazySignal } from './followed-signal.js';
import { EvaluationId } from './tokens.js';
import { ToolCallScope } from './tool-call-scope.js';

/** What an evaluation scope holds. @internal */
export interface EvaluationScopeInit {
  readonly root: Container;
  readonly evaluationId: string;
  readonly prompt: Prompt;
  readonly rendered: RenderedPrompt;
  readonly session: Session;
  readonly deadline: Deadline | undefined;
  readonly budgetTracker: BudgetTracker | undefined;
  readonly resources: ResourceContext;
  readonly adapter: ProviderAdapter;
  /** The tools of the rendered prompt as the adapter offers them, schemas chosen once. */
  readonly toolSpecs: readonly ToolSpec[];
  /**
   * Renders the prompt again for {@link EvaluationScope.refreshTools}, when a
   * section's tools changed during the evaluation. Absent: the tools never change.
   */
  readonly rerender?: (() => ScopeRender) | undefined;
  /** Runs a nested evaluation on the same runtime and adapter (`context.evaluate`). */
  readonly evaluate: NestedEvaluate;
  /**
   * The evaluation's cancellation (its deadline's and its caller's signals):
   * stops following them when the scope is disposed. Absent: nothing cancels it.
   */
  readonly cancellation?: FollowedSignal | undefined;
  /**
   * Whether a `@Section` class can be resolved in the evaluation scope because
   * none of its dependencies is a call value; such classes skip the per-call
   * container. Absent: every section is resolved per call.
   */
  readonly resolvableWithoutCall?: ((sectionClass: object) => boolean) | undefined;
  /**
   * How to build a `@Section` class that injects call values without a call
   * container, when `prepare` found one (see `planDirectConstruction`).
   */
  readonly directConstruction?:
    ((sectionClass: object) => DirectConstruction | undefined) | undefined;
  /** Where the calls' `context.reportProgress` goes; absent: nowhere. */
  readonly onProgress?: ((callId: string, progress: ToolProgress) => void) | undefined;
}

/**
 * One evaluation's child container and values. Its values are bound in the
 * child container (`Session`, `Deadline`, `BudgetTracker`, `Prompt`,
 * `RenderedPrompt`, `ProviderAdapter`, `EvaluationId`), so services resolved
 * in it or in its call scopes can inject them. `dispose()` unbinds everything
 * (running deactivation hooks) and closes the evaluation's resources.
 * @internal
 */
export class EvaluationScope {
  readonly evaluationId: string;
  readonly prompt: Prompt;
  readonly session: Session;
  readonly deadline: Deadline | undefined;
  readonly budgetTracker: BudgetTracker | undefined;
  readonly resources: ResourceContext;
  readonly adapter: ProviderAdapter;
  readonly requestPrompt: RequestPrompt;
  readonly evaluate: NestedEvaluate;
  /** The evaluation's cancellation; its `AbortSignal` is made only when read. */
  readonly cancellation: LazySignal;
  readonly resolvableWithoutCall: (sectionClass: object) => boolean;
  readonly directConstruction: (sectionClass: object) => DirectConstruction | undefined;
  #rendered: RenderedPrompt;
  #toolSpecs: readonly ToolSpec[];
  #strict: ReadonlySet<string>;
  /** The prompt's `toolsRevision` the tools were rendered at. */
  #toolsRevision: number;
  /** The session's section visibility overrides when the prompt was last rendered. */
  #visibility: readonly SectionVisibilityOverride[];
  // Kept one by one, not as the init object: a live evaluation holds only what it still needs.
  readonly #root: Container;
  readonly #rerender: EvaluationScopeInit['rerender'];
  readonly #onProgress: EvaluationScopeInit['onProgress'];
  readonly #followed: FollowedSignal;
  #container: Container | undefined;
  #disposed = false;

  constructor(init: EvaluationScopeInit) {
    this.resolvableWithoutCall = init.resolvableWithoutCall ?? (() => false);
    this.directConstruction = init.directConstruction ?? (() => undefined);
    this.evaluationId = init.evaluationId;
    this.prompt = init.prompt;
    this.#rendered = init.rendered;
    this.session = init.session;
    this.deadline = init.deadline;
    this.budgetTracker = init.budgetTracker;
    this.resources = init.resources;
    this.adapter = init.adapter;
    this.#toolSpecs = init.toolSpecs;
    this.#strict = strictNames(init.toolSpecs);
    this.#toolsRevision = init.prompt.toolsRevision;
    this.#visibility = init.session.slice(SectionVisibilityOverride).all();
    this.requestPrompt = requestPromptOf(init.prompt);
    this.evaluate = init.evaluate;
    this.#followed = init.cancellation ?? new FollowedSignal([]);
    this.cancellation = this.#followed;
    this.#root = init.root;
    this.#rerender = init.rerender;
    this.#onProgress = init.onProgress;
  }

  /** The application's container, the evaluation's parent. */
  get root(): Container {
    return this.#root;
  }

  /**
   * The evaluation's child container, created on first use: an evaluation whose
   * tools resolve no section or service never builds one (most of the memory
   * of a live evaluation was this container).
   */
  get container(): Container {
    if (this.#container !== undefined) return this.#container;
    const container = new Container({ parent: this.#root });
    container.bind(EvaluationId).toConstantValue(this.evaluationId);
    container.bind(Prompt).toConstantValue(this.prompt);
    container.bind(RenderedPrompt).toDynamicValue(() => this.#rendered);
    container.bind(Session).toConstantValue(this.session);
    container.bind(ProviderAdapter).toConstantValue(this.adapter);
    if (this.deadline !== undefined) container.bind(Deadline).toConstantValue(this.deadline);
    if (this.budgetTracker !== undefined) {
      container.bind(BudgetTracker).toConstantValue(this.budgetTracker);
    }
    this.#container = container;
    return container;
  }

  /** The prompt as rendered for this evaluation (again after {@link EvaluationScope.refreshTools} took up new tools). */
  get rendered(): RenderedPrompt {
    return this.#rendered;
  }

  /** The tools as the adapter offers them, schemas chosen once per rendering. */
  get toolSpecs(): readonly ToolSpec[] {
    return this.#toolSpecs;
  }

  /**
   * Takes up the tools a section changed since they were rendered (its
   * `toolsRevision` grew): renders again and offers the new list from the
   * next request on. The conversation's system text stays as it was sent. A
   * new list with two tools of one name is not taken up: the evaluation
   * keeps the tools it had. Returns whether the tools changed.
   */
  refreshTools(): boolean {
    const rerender = this.#rerender;
    if (rerender === undefined) return false;
    const revision = this.prompt.toolsRevision;
    // A section the model opened (`open_sections`) offers its tools too.
    const visibility = this.session.slice(SectionVisibilityOverride).all();
    const opened =
      visibility !== this.#visibility && visibility.length + this.#visibility.length > 0;
    if (revision === this.#toolsRevision && !opened) return false;
    this.#toolsRevision = revision;
    this.#visibility = visibility;
    const { rendered, toolSpecs } = rerender();
    const names = new Set(toolSpecs.map((spec) => spec.name));
    if (names.size !== toolSpecs.length) return false;
    this.#rendered = rendered;
    this.#toolSpecs = toolSpecs;
    this.#strict = strictNames(toolSpecs);
    return true;
  }

  /** The profile the model's arguments for `toolName` follow: the schema choice sent with the tool. */
  argumentsProfile(toolName: string): SchemaProfile {
    return this.#strict.has(toolName) ? 'openai-strict' : 'standard';
  }

  /** The `context.reportProgress` of call `callId`: a shared no-op when no one listens. */
  progressReporter(callId: string): (progress: ToolProgress) => void {
    const listener = this.#onProgress;
    if (listener === undefined) return ignoreProgress;
    return (progress) => {
      try {
        listener(callId, progress);
      } catch {
        // A listener's failure is the listener's: the tool goes on.
      }
    };
  }

  /** Opens the scope of one tool call; dispose it when the call ends. */
  openCall(callId: string, signal: LazySignal): ToolCallScope {
    return new ToolCallScope(this, callId, signal);
  }

  /**
   * Unbinds the scope's values (deactivation hooks run) and closes its
   * resources. Idempotent. A scope that built no container and created no
   * resource is closed at once (no promise, as most direct calls' scopes);
   * otherwise the promise of the closing.
   */
  dispose(): Promise<void> | undefined {
    if (this.#disposed) return undefined;
    this.#disposed = true;
    this.#followed.detach();
    if (this.#container === undefined && this.resources.closeIfIdle()) return undefined;
    return this.#close();
  }

  async #close(): Promise<void> {
    const errors: unknown[] = [];
    await this.#container?.unbindAllAsync().catch((error: unknown) => errors.push(error));
    await this.resources.close().catch((error: unknown) => errors.push(error));
    if (errors.length > 0)
      throw new AggregateError(errors, 'Disposing the evaluation scope failed.');
  }
}

/** The names of the strict specs, by specs array: evaluations that share their specs share the set. */
const strictSets = new WeakMap<readonly ToolSpec[], ReadonlySet<string>>();

function strictNames(specs: readonly ToolSpec[]): ReadonlySet<string> {
  let names = strictSets.get(specs);
  if (names === undefined) {
    names = new Set(specs.filter((spec) => spec.strict).map((spec) => spec.name));
    strictSets.set(specs, names);
  }
  return names;
}

/** The frozen request view of each prompt, made once. */
const requestPrompts = new WeakMap<Prompt, RequestPrompt>();

function requestPromptOf(prompt: Prompt): RequestPrompt {
  let view = requestPrompts.get(prompt);
  if (view === undefined) {
    view = Object.freeze({
      name: prompt.name,
      ns: prompt.ns,
      key: prompt.key,
      label: prompt.label,
    });
    requestPrompts.set(prompt, view);
  }
  return view;
}

function ignoreProgress(): void {
  // No one listens to this evaluation's progress.
}
