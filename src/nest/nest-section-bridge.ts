import { AsyncLocalStorage } from 'node:async_hooks';

import { Injectable, type OnModuleInit, Scope } from '@nestjs/common';
import { type ContextId, ContextIdFactory, DiscoveryService, ModuleRef } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';

import {
  AffordanceRuntime,
  type Class,
  ConfigurationError,
  hasToolMethods,
  isSectionClass,
  RenderedPrompt,
} from '../index.js';
import type { ReadContext } from './bind-stream-reads.js';
import { requestScopedSection } from './request-scoped-section.js';

type Token = Class | string | symbol;

/** A `@Section` class some Nest module provides. */
export interface NestSection {
  /** The class prompts name. */
  readonly cls: Class;
  /** The Nest token it is provided under (the class itself, unless `{ provide, useClass }`). */
  readonly token: Token;
  /** The module providing it, for messages. */
  readonly moduleName: string;
  /** Whether Nest holds one instance (default scope, static dependency tree). */
  readonly singleton: boolean;
}

/** A Nest context held for work that enters it more than once (see {@link NestSectionBridge.hold}). */
export interface HeldContext {
  /** Runs `work` in the context. */
  readonly enter: ReadContext;
  /** The work has ended: the bridge may stop tracking the context. */
  readonly release: () => void;
}

/** The Nest context an evaluation's request- and transient-scoped sections are resolved in. */
interface EvaluationContext {
  readonly contextId: ContextId;
}

/**
 * The bridge between Nest's injector and the runtime's inversify container.
 * At module init it discovers every provider that is a `@Section` class and
 * binds the class in the runtime's container with a dynamic value that asks
 * Nest for the instance on each resolution: `moduleRef.get` for singletons,
 * `moduleRef.resolve` in the evaluation's Nest context for the others. The
 * context travels with the evaluation in an `AsyncLocalStorage`, so nested
 * evaluations and concurrent tool calls keep their request.
 *
 * On Node 20 an enabled `AsyncLocalStorage` turns on promise hooks for the
 * whole process: every promise of the application (its HTTP server, its
 * database driver) pays for them. So the storage is enabled only while an
 * evaluation, a resumed one, a stream or a direct tool call runs through the
 * bridge, and disabled when the last of them has ended.
 */
@Injectable()
export class NestSectionBridge implements OnModuleInit {
  readonly #discovery: DiscoveryService;
  readonly #moduleRef: ModuleRef;
  readonly #runtime: AffordanceRuntime;
  readonly #sections = new Map<Class, NestSection>();
  readonly #storage = new AsyncLocalStorage<EvaluationContext>();
  /** Contexts of evaluations started without `AffordanceService` (e.g. `runtime.evaluate`): one per evaluation. */
  readonly #orphanContexts = new WeakMap<RenderedPrompt, ContextId>();
  #discovered = false;
  /** Evaluations, streams and direct calls under way in the storage. */
  #running = 0;

  constructor(discovery: DiscoveryService, moduleRef: ModuleRef, runtime: AffordanceRuntime) {
    this.#discovery = discovery;
    this.#moduleRef = moduleRef;
    this.#runtime = runtime;
  }

  onModuleInit(): void {
    this.discover();
  }

  /** The discovered section of `cls`, if a Nest module provides it. */
  sectionOf(cls: object): NestSection | undefined {
    return this.#sections.get(cls as Class);
  }

  /**
   * Finds the section providers and binds them in the runtime's container. Idempotent.
   * @throws ConfigurationError for a provider with `@Tool` methods but no `@Section`,
   * a section provided by two modules, or a section the runtime's container already binds.
   */
  discover(): void {
    if (this.#discovered) return;
    for (const wrapper of this.#discovery.getProviders()) {
      const found = this.#sectionFrom(wrapper);
      if (found !== undefined) this.#add(found);
    }
    for (const section of this.#sections.values()) this.#bind(section);
    this.#discovered = true;
  }

  /** Throws unless `discover()` ran (it runs when the Nest application initialises). */
  assertDiscovered(caller: string): void {
    if (this.#discovered) return;
    throw new ConfigurationError({
      subject: caller,
      problem:
        'was called before the Nest application finished initialising, so its sections are not discovered yet.',
      fix: 'Evaluate prompts once the application is initialised: after app.init() or app.listen(), or from a request handler or onApplicationBootstrap().',
    });
  }

  /**
   * The Nest context for an evaluation: `contextId` when given, else the
   * request's (the one Nest gave its request-scoped providers, created if
   * none), else the enclosing evaluation's, else a new one. A request is
   * registered under the context, so `@Inject(REQUEST)` sees it.
   */
  contextFor(request: object | undefined, contextId: ContextId | undefined): ContextId {
    const id =
      contextId ??
      (request === undefined
        ? (this.#storage.getStore()?.contextId ?? ContextIdFactory.create())
        : ContextIdFactory.getByRequest(request as Record<string, unknown>));
    if (request !== undefined) this.#moduleRef.registerRequestByContextId(request, id);
    return id;
  }

  /**
   * Runs `evaluation` with `contextId` as the Nest context of every section it
   * resolves, the storage enabled until what it returns settles.
   */
  run<T>(contextId: ContextId, evaluation: () => Promise<T>): Promise<T> {
    return this.#runCounted({ contextId }, evaluation);
  }

  /**
   * The context `contextId` for work that enters it more than once, such as
   * the reads of a stream whose evaluation runs on between them: the storage
   * stays enabled from the first `enter` until `release` (call it once the
   * work has ended; later calls do nothing). An `enter` after `release` runs
   * as {@link NestSectionBridge.run} does.
   */
  hold(contextId: ContextId): HeldContext {
    const store: EvaluationContext = { contextId };
    let state: 'idle' | 'held' | 'released' = 'idle';
    return {
      enter: <T>(work: () => Promise<T>): Promise<T> => {
        if (state === 'released') return this.#runCounted(store, work);
        if (state === 'idle') {
          state = 'held';
          this.#running += 1;
        }
        try {
          return this.#storage.run(store, work);
        } catch (error) {
          // As a rejection, so the caller's handling of a failed read (which releases the hold) sees it.
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what `work` threw, unchanged
          return Promise.reject(error);
        }
      },
      release: (): void => {
        const wasHeld = state === 'held';
        state = 'released';
        if (wasHeld) this.#leave();
      },
    };
  }

  #runCounted<T>(store: EvaluationContext, work: () => Promise<T>): Promise<T> {
    this.#running += 1;
    let running: Promise<T>;
    try {
      running = this.#storage.run(store, work);
    } catch (error) {
      this.#leave();
      throw error;
    }
    return running.finally(() => {
      this.#leave();
    });
  }

  /** One piece of work ended; with none left, the storage (and, with it, the promise hooks) goes off. */
  #leave(): void {
    this.#running -= 1;
    if (this.#running === 0) this.#storage.disable();
  }

  #sectionFrom(wrapper: InstanceWrapper): NestSection | undefined {
    if (wrapper.isAlias) return undefined;
    const token = wrapper.token;
    const metatype = wrapper.metatype;
    const moduleName = wrapper.host?.name ?? 'an unknown module';
    // `{ provide: X, useFactory | useValue }` where X is a section class: the token is the class prompts use.
    const cls = isSectionClass(token)
      ? token
      : wrapper.inject == null && isSectionClass(metatype)
        ? metatype
        : undefined;
    if (cls === undefined) {
      if (typeof metatype === 'function' && wrapper.inject == null)
        assertNotUndecorated(metatype as Class, moduleName);
      return undefined;
    }
    const singleton =
      wrapper.scope !== Scope.REQUEST &&
      wrapper.scope !== Scope.TRANSIENT &&
      wrapper.isDependencyTreeStatic();
    return { cls, token: token as Token, moduleName, singleton };
  }

  #add(section: NestSection): void {
    const other = this.#sections.get(section.cls);
    if (other !== undefined) {
      throw new ConfigurationError({
        subject: section.cls.name,
        problem: `is provided by two Nest modules, ${other.moduleName} and ${section.moduleName}, so a tool call could not tell which instance to use.`,
        fix: `Provide ${section.cls.name} in one module and export it from there to the modules that inject it.`,
      });
    }
    this.#sections.set(section.cls, section);
  }

  #bind(section: NestSection): void {
    const container = this.#runtime.container;
    const id = section.cls as unknown as new () => unknown;
    if (container.isBound(id)) {
      throw new ConfigurationError({
        subject: section.cls.name,
        problem: `is a provider of ${section.moduleName} and is also bound in the affordance container, so it would exist twice.`,
        fix: `Remove the binding of ${section.cls.name} from AffordanceModule's configure option and let Nest build it.`,
      });
    }
    // Transient in inversify: the dynamic value runs on every resolution, i.e. on every tool call.
    container
      .bind(id)
      .toDynamicValue((context) =>
        this.#resolve(section, context.get(RenderedPrompt, { optional: true })),
      );
    // A tool call builds it the same way without the container: reached through the container, each
    // evaluation would build a child container first, several times the cost of the evaluation.
    this.#runtime.provideSection(section.cls, (rendered) => this.#resolve(section, rendered));
  }

  #resolve(section: NestSection, rendered: RenderedPrompt | undefined): object {
    if (section.singleton)
      return this.#moduleRef.get<unknown, object>(section.token, { strict: false });
    const contextId = this.#storage.getStore()?.contextId ?? this.#orphanContext(rendered);
    return requestScopedSection(section.cls, () =>
      this.#moduleRef.resolve(section.token, contextId, { strict: false }),
    );
  }

  #orphanContext(rendered: RenderedPrompt | undefined): ContextId {
    if (rendered === undefined) return ContextIdFactory.create();
    let contextId = this.#orphanContexts.get(rendered);
    if (contextId === undefined) {
      contextId = ContextIdFactory.create();
      this.#orphanContexts.set(rendered, contextId);
    }
    return contextId;
  }
}

/** Rejects a provider that declares tools but forgot `@Section`: its tools would never be offered. */
function assertNotUndecorated(cls: Class, moduleName: string): void {
  if (!hasToolMethods(cls)) return;
  const base = Object.getPrototypeOf(cls) as unknown;
  const inherited = isSectionClass(base)
    ? ` Its base class ${base.name} is a section, but @Section options are not inherited: each section class needs its own key.`
    : '';
  throw new ConfigurationError({
    subject: cls.name,
    problem: `is a provider of ${moduleName} and has @Tool methods, but is not decorated with @Section, so no prompt can offer its tools.${inherited}`,
    fix: `Add @Section({ key: '...', title: '...' }) to ${cls.name}, or remove its @Tool decorators if it is not a section.`,
  });
}
