import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Container } from 'inversify';

import {
  AffordanceRuntime,
  BlobStore,
  EvaluationStateStore,
  installAffordance,
  ProviderAdapter,
} from '../index.js';
import {
  type AffordanceModuleAsyncOptions,
  AffordanceModuleOptions,
} from './affordance-module-options.js';
import { AffordanceService } from './affordance-service.js';
import { assertAdapterOption, assertAdapterScope, createAdapter } from './create-adapter.js';
import { assertStateStore, createStateStore } from './create-state-store.js';
import {
  assertDurableOptions,
  durableExports,
  durableProviders,
  queueProvider,
} from './durable-providers.js';
import { NestSectionBridge } from './nest-section-bridge.js';

/**
 * Affordance in a Nest application. Import it once with `forRoot` (or
 * `forRootAsync`), declare `@Section` classes as ordinary providers of any
 * module (constructor injection of Nest services, request scope included),
 * and inject {@link AffordanceService} to evaluate prompts. The module is
 * global by default and exports `AffordanceService`, `AffordanceRuntime`,
 * `ProviderAdapter`, `EvaluationStateStore` (the `stateStore` option, or an
 * in-memory store), where controllers keep evaluations paused for approval,
 * `SessionStore` and `SessionPersistence` (the `sessionStore` option, or an
 * in-memory store) for sessions that outlive a request, and the
 * `evaluationQueue` option under its own class.
 *
 * @example
 * \@Module({
 *   imports: [AffordanceModule.forRoot({ adapter: OpenAIAdapter, prompts: [supportPrompt] })],
 *   controllers: [AgentController],
 *   providers: [KnowledgeBase, SupportSection],
 * })
 * class AppModule {}
 */
@Module({})
export class AffordanceModule {
  /** The module configured with `options`. */
  static forRoot(options: AffordanceModuleOptions): DynamicModule {
    assertAdapterOption(options.adapter, 'AffordanceModule.forRoot');
    assertAdapterScope(options.adapterScope, 'AffordanceModule.forRoot');
    assertStateStore(options.stateStore, 'AffordanceModule.forRoot');
    assertDurableOptions(options, 'AffordanceModule.forRoot');
    const queue = queueProvider(options.evaluationQueue, 'AffordanceModule.forRoot');
    return {
      module: AffordanceModule,
      global: options.global ?? true,
      imports: [DiscoveryModule],
      providers: [
        { provide: AffordanceModuleOptions, useValue: options },
        ...sharedProviders,
        ...queue.providers,
      ],
      exports: [...exports, ...queue.exports],
    };
  }

  /**
   * The module configured by a factory that injects providers of `imports`,
   * e.g. a configuration service that knows whether to use OpenAI.
   */
  static forRootAsync(options: AffordanceModuleAsyncOptions): DynamicModule {
    const queue = queueProvider(options.evaluationQueue, 'AffordanceModule.forRootAsync');
    return {
      module: AffordanceModule,
      global: options.global ?? true,
      imports: [DiscoveryModule, ...(options.imports ?? [])],
      providers: [
        {
          provide: AffordanceModuleOptions,
          useFactory: async (...args: never[]) => {
            const resolved = await options.useFactory(...args);
            assertAdapterOption(resolved.adapter, 'AffordanceModule.forRootAsync');
            assertAdapterScope(resolved.adapterScope, 'AffordanceModule.forRootAsync');
            assertStateStore(resolved.stateStore, 'AffordanceModule.forRootAsync');
            assertDurableOptions(resolved, 'AffordanceModule.forRootAsync');
            return resolved;
          },
          inject: options.inject ?? [],
        },
        ...sharedProviders,
        ...queue.providers,
      ],
      exports: [...exports, ...queue.exports],
    };
  }
}

const sharedProviders: Provider[] = [
  {
    provide: AffordanceRuntime,
    useFactory: (options: AffordanceModuleOptions) => {
      const container = new Container();
      const runtime = installAffordance(container, options.runtime);
      if (options.blobStore !== undefined)
        container.bind(BlobStore).toConstantValue(options.blobStore);
      options.configure?.(container);
      return runtime;
    },
    inject: [AffordanceModuleOptions],
  },
  {
    provide: ProviderAdapter,
    useFactory: (runtime: AffordanceRuntime, options: AffordanceModuleOptions) =>
      createAdapter(runtime, options),
    inject: [AffordanceRuntime, AffordanceModuleOptions],
  },
  {
    provide: EvaluationStateStore,
    useFactory: (options: AffordanceModuleOptions) => createStateStore(options),
    inject: [AffordanceModuleOptions],
  },
  ...durableProviders,
  NestSectionBridge,
  AffordanceService,
];

const exports = [
  AffordanceService,
  AffordanceRuntime,
  ProviderAdapter,
  EvaluationStateStore,
  ...durableExports,
];
