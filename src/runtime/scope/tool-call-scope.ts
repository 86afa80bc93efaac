import { Container, type Newable } from 'inversify';
import { resolvedMedia } from '../media/resolved-media.js';

import type { Prompt } from '../../prompt/prompt.js';
import type { RenderedPrompt } from '../../prompt/rendered-prompt.js';
import { isSectionClass } from '../../prompt/section-metadata.js';
import type { ProviderAdapter } from '../../provider/provider-adapter.js';
import { Filesystem } from '../../resources/filesystem.js';
import type { ResourceContext } from '../../resources/resource-context.js';
import type { Session } from '../../session/session.js';
import { type ServiceResolver, ToolContext } from '../../tools/tool-context.js';
import type { BudgetTracker } from '../limits/budget-tracker.js';
import type { Deadline } from '../limits/deadline.js';
import type { NestedEvaluate, ToolProgress } from '../tool-context-members.js';
import { CallContext } from './call-context.js';
import type { DirectConstruction } from './direct-construction.js';
import type { LazySignal } from './followed-signal.js';
import { ToolCallId, ToolCallSignal } from './tokens.js';

/**
 * What a tool call's scope takes from the evaluation it belongs to (an
 * `EvaluationScope`): the values its `ToolContext` carries and the containers
 * and plans it resolves section classes with. @internal
 */
export interface CallScopeParent {
  readonly evaluationId: string;
  readonly prompt: Prompt;
  readonly rendered: RenderedPrompt;
  readonly session: Session;
  readonly deadline: Deadline | undefined;
  readonly budgetTracker: BudgetTracker | undefined;
  readonly resources: ResourceContext;
  readonly adapter: ProviderAdapter;
  readonly evaluate: NestedEvaluate;
  /** The application container. */
  readonly root: Container;
  /** The evaluation's child container. */
  readonly container: Container;
  readonly resolvableWithoutCall: (sectionClass: object) => boolean;
  readonly directConstruction: (sectionClass: object) => DirectConstruction | undefined;
  progressReporter(callId: string): (progress: ToolProgress) => void;
}

/**
 * One tool call's child container: binds `ToolContext`, `ToolCallId` and
 * `ToolCallSignal`, and resolves section classes for the call.
 * @internal
 */
export class ToolCallScope {
  readonly context: ToolContext;
  readonly resources: ResourceContext;
  readonly #evaluation: CallScopeParent;
  readonly #callId: string;
  readonly #signal: LazySignal;
  #container: Container | undefined;
  #disposed = false;

  constructor(evaluation: CallScopeParent, callId: string, signal: LazySignal) {
    this.#evaluation = evaluation;
    this.#callId = callId;
    this.#signal = signal;
    this.resources = evaluation.resources.openToolCall();
    const services: ServiceResolver = new CallServices(this);
    // Its `signal` is made when the handler reads it: most handlers never do.
    this.context = new CallContext({
      callId,
      cancellation: signal,
      services,
      evaluationId: evaluation.evaluationId,
      prompt: evaluation.prompt,
      renderedPrompt: evaluation.rendered,
      session: evaluation.session,
      sessionView: evaluation.session.view,
      deadline: evaluation.deadline,
      budgetTracker: evaluation.budgetTracker,
      resources: this.resources,
      filesystem: this.resources.has(Filesystem) ? this.resources.get(Filesystem) : undefined,
      adapter: evaluation.adapter,
      evaluate: evaluation.evaluate,
      reportProgress: evaluation.progressReporter(callId),
      media: (reference: string) => resolvedMedia(evaluation, reference),
    });
  }

  /** What `context.services.get(id)` returns for this call. */
  resolve<T>(id: abstract new (...args: never[]) => T): T {
    const evaluation = this.#evaluation;
    // Planned only for the prompt's section classes (see `prepare`): looked up before the metadata.
    const direct = evaluation.directConstruction(id);
    if (direct !== undefined) return this.#construct(direct) as T;
    if (!isSectionClass(id)) return this.container.get(id as unknown as Newable<T>);
    // A section that injects no call value is resolved in the evaluation scope: no call container.
    if (evaluation.resolvableWithoutCall(id)) return this.#resolveSection(evaluation.container, id);
    return this.#resolveSection(this.container, id);
  }

  /**
   * Resolves a section class in `container`, binding it there (transient) when
   * the application did not, so its constructor sees that scope's values and
   * no instance outlives the call.
   */
  #resolveSection<T>(container: Container, id: abstract new (...args: never[]) => T): T {
    const serviceId = id as unknown as Newable<T>;
    if (!container.isBound(serviceId)) container.bind(serviceId).toSelf();
    return container.get(serviceId);
  }

  /** Builds a section class for this call as `planDirectConstruction` planned it, or with the builder provided for it. */
  #construct(direct: DirectConstruction): object {
    if (direct.build !== undefined) return direct.build(this.#evaluation.rendered);
    if (direct.arguments.length === 0) return new direct.sectionClass();
    const evaluation = this.#evaluation;
    const args = direct.arguments.map((argument) =>
      argument.from === 'call'
        ? this.#callValue(argument.id)
        : argument.from === 'root'
          ? evaluation.root.get(argument.id)
          : evaluation.container.get(argument.id),
    );
    return new direct.sectionClass(...args);
  }

  #callValue(id: unknown): unknown {
    if (id === ToolContext) return this.context;
    if (id === ToolCallId) return this.#callId;
    if (id === ToolCallSignal) return this.#signal.signal;
    throw new Error(`affordance internal error: ${String(id)} is not a call value.`);
  }

  /**
   * The call's child container, created on first use (a handler that never
   * resolves a service costs no container).
   */
  get container(): Container {
    if (this.#container === undefined) {
      const container = new Container({ parent: this.#evaluation.container });
      container.bind(ToolContext).toConstantValue(this.context);
      container.bind(ToolCallId).toConstantValue(this.#callId);
      container.bind(ToolCallSignal).toConstantValue(this.#signal.signal);
      this.#container = container;
    }
    return this.#container;
  }

  /**
   * Unbinds the call's values and closes its call-scoped resources. Idempotent.
   * A call that built no container and created no resource is closed at once
   * (no promise); otherwise the promise of the closing.
   */
  dispose(): Promise<void> | undefined {
    if (this.#disposed) return undefined;
    this.#disposed = true;
    if (this.#container === undefined && this.resources.closeIfIdle()) return undefined;
    return this.#close();
  }

  async #close(): Promise<void> {
    const errors: unknown[] = [];
    if (this.#container !== undefined) {
      await this.#container.unbindAllAsync().catch((error: unknown) => errors.push(error));
    }
    await this.resources.close().catch((error: unknown) => errors.push(error));
    if (errors.length > 0)
      throw new AggregateError(errors, 'Disposing the tool-call scope failed.');
  }
}

/** `context.services` of one call: resolves through its {@link ToolCallScope}. */
class CallServices implements ServiceResolver {
  readonly #scope: ToolCallScope;

  constructor(scope: ToolCallScope) {
    this.#scope = scope;
  }

  get<T>(id: abstract new (...args: never[]) => T): T {
    return this.#scope.resolve(id);
  }
}
