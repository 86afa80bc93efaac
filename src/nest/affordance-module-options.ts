import type { FactoryProvider, InjectionToken, ModuleMetadata } from '@nestjs/common';
import type { Container, Newable } from 'inversify';

import type { SessionCodec, SessionStore } from '../durable/index.js';
import type { FallbackAdapterOptions } from '../provider/index.js';

import type {
  AffordanceRuntime,
  BlobStore,
  EvaluationStateStore,
  Prompt,
  ProviderAdapter,
  RuntimeOptions,
} from '../index.js';

/**
 * Builds the module's provider adapter, e.g. `() => new ScriptedAdapter(script)`;
 * receives the runtime, whose container holds the application's services. May be async.
 */
export type AdapterFactory = (
  runtime: AffordanceRuntime,
) => ProviderAdapter | Promise<ProviderAdapter>;

/**
 * The provider adapter of {@link AffordanceModuleOptions}: a `ProviderAdapter`
 * subclass, built by the runtime's inversify container (so its `@inject`
 * dependencies come from there, e.g. `OpenAIAdapter`), or an {@link AdapterFactory}.
 */
export type AdapterOption = Newable<ProviderAdapter> | AdapterFactory;

/**
 * How often the module builds its adapter: once for the application
 * (`'singleton'`, the default), or afresh for every outermost evaluation
 * (`'evaluation'`), e.g. a `ScriptedAdapter` per HTTP request in tests.
 */
export type AdapterScope = 'singleton' | 'evaluation';

/** Options of `AffordanceModule.forRoot` (and what `forRootAsync`'s factory returns). */
export interface AffordanceModuleOptions {
  /**
   * The provider adapter every evaluation of `AffordanceService` uses; a list
   * of them (each a class or a factory) is served by a `FallbackAdapter` over
   * them, in order, with the `fallback` options. A factory may also return a
   * `FallbackAdapter` or `RoutingAdapter` it builds itself.
   */
  readonly adapter: AdapterOption | readonly AdapterOption[];
  /**
   * Options of the `FallbackAdapter` the module builds when `adapter` is a
   * list (which failures move on, the circuit breaker, `onEvent`). Its
   * circuits live as long as the adapter: keep the default `adapterScope`
   * (`'singleton'`) for a failing provider to be skipped across requests.
   */
  readonly fallback?: FallbackAdapterOptions;
  /**
   * `'evaluation'` builds a new adapter (calls the factory, or resolves the
   * class again) for every evaluation started through `AffordanceService` or
   * `runtime.evaluate`, so each request of a test can have its own
   * script: `adapter: () => new ScriptedAdapter(nextScript())`.
   * Nested evaluations started by a tool (`context.evaluate`) keep their
   * evaluation's adapter. Default `'singleton'`: one adapter for the application.
   */
  readonly adapterScope?: AdapterScope;
  /**
   * Options of the affordance runtime (maxTurns, readOnlyConcurrency, clock,
   * resources); `stateSecret` for a prompt whose tools need approval.
   */
  readonly runtime?: RuntimeOptions;
  /**
   * Binds services in the runtime's inversify container before the adapter is
   * built, e.g. `OpenAIAdapterOptions` for an adapter class. Nest services need
   * no binding: sections that are Nest providers are built by Nest.
   */
  readonly configure?: (container: Container) => void;
  /**
   * Prompts checked when the application starts (their sections resolvable,
   * no scope leaks), so wiring mistakes fail at startup rather than at the
   * first request. Prompts not listed are checked at their first evaluation.
   */
  readonly prompts?: readonly Prompt[];
  /**
   * Where evaluations paused for a person's approval wait: the module
   * provides it under the `EvaluationStateStore` class (from `affordance`),
   * so controllers inject it by type, save `response.interruption.state` in
   * it and `take` it back when the decisions arrive. Default: a new
   * `InMemoryEvaluationStateStore` (lost on restart); pass a store backed by
   * a database to keep paused evaluations across restarts and processes.
   */
  readonly stateStore?: EvaluationStateStore;
  /**
   * Where sessions are stored (`affordance/durable`): the module provides it
   * under the `SessionStore` class, and a `SessionPersistence` on it (with
   * `sessionCodec`) under its class, so services open, evaluate and commit
   * sessions that outlive the request. Default: a new `InMemorySessionStore`.
   */
  readonly sessionStore?: SessionStore;
  /**
   * The codec of the provided `SessionPersistence`: register the application's
   * slice classes in it (the classes of `prompts` are registered by the module).
   */
  readonly sessionCodec?: SessionCodec;
  /**
   * Where the bytes of images, documents and audio live (`FilesystemBlobStore`,
   * `PostgresBlobStore` or `RedisBlobStore` of `affordance/durable`): bound in
   * the runtime's container and given to the provided `SessionPersistence`
   * (which then checks every session's media against it). Without it the
   * runtime keeps media in memory, and a stored session that refers to media
   * is refused at commit.
   */
  readonly blobStore?: BlobStore;
  /**
   * A queue of evaluation jobs (`EvaluationQueue` of `affordance/bullmq`), provided
   * and exported under its own class so controllers inject it by type. The
   * nest entry point never loads BullMQ itself.
   */
  readonly evaluationQueue?: object;
  /** Whether the module is global (its exports visible in every module). Default `true`. */
  readonly global?: boolean;
}

/** Nest injection token of the module's {@link AffordanceModuleOptions}. */
export const AffordanceModuleOptions: InjectionToken = Symbol.for('affordance.nest.module-options');

/** Options of `AffordanceModule.forRootAsync`: the options come from a factory with injected dependencies. */
export interface AffordanceModuleAsyncOptions {
  /** Modules whose exported providers the factory injects (e.g. a configuration module). */
  readonly imports?: ModuleMetadata['imports'];
  /** Tokens of the providers passed to `useFactory`, in order. */
  readonly inject?: FactoryProvider['inject'];
  /** Builds the options from the injected providers; may be async. */
  readonly useFactory: (
    ...args: never[]
  ) => AffordanceModuleOptions | Promise<AffordanceModuleOptions>;
  /** Whether the module is global. Default `true` (decided here: `useFactory` runs too late for it). */
  readonly global?: boolean;
  /** As in `forRoot` (given here: a provider's class must be known before `useFactory` runs). */
  readonly evaluationQueue?: object;
}
