import type { Newable } from 'inversify';

import { type AffordanceRuntime, ConfigurationError, ProviderAdapter } from '../index.js';
import {
  FallbackAdapter,
  providerCapabilities,
  type ProviderCapabilities,
  type ProviderTurn,
} from '../provider/index.js';
import type { AdapterOption, AffordanceModuleOptions } from './affordance-module-options.js';

const scriptedFactory = 'adapter: () => new ScriptedAdapter(script)';

/**
 * Builds the module's adapter: a `ProviderAdapter` subclass is bound in the
 * runtime's container and resolved there; a factory is called with the
 * runtime. The adapter is bound as `ProviderAdapter` in that container, where
 * `runtime.evaluate` finds it. With `adapterScope: 'evaluation'` the binding
 * builds a fresh adapter for every evaluation instead, and what the module
 * gives Nest is a stand-in that sends no requests.
 * @internal
 */
export async function createAdapter(
  runtime: AffordanceRuntime,
  options: Pick<AffordanceModuleOptions, 'adapter' | 'adapterScope' | 'fallback'>,
): Promise<ProviderAdapter> {
  const container = runtime.container;
  const option = options.adapter;
  if (isAdapterList(option)) {
    const build = async (): Promise<ProviderAdapter> => {
      const members: ProviderAdapter[] = [];
      for (const member of option) members.push(await buildAdapter(runtime, member, false));
      return new FallbackAdapter(members, options.fallback);
    };
    if (options.adapterScope === 'evaluation') {
      if (!container.isBound(ProviderAdapter)) {
        container.bind(ProviderAdapter).toDynamicValue(build).inTransientScope();
      }
      return new PerEvaluationAdapter();
    }
    const fallback = await build();
    if (!container.isBound(ProviderAdapter)) {
      container.bind(ProviderAdapter).toConstantValue(fallback);
    }
    return fallback;
  }
  if (options.adapterScope === 'evaluation') {
    if (!container.isBound(ProviderAdapter)) {
      container
        .bind(ProviderAdapter)
        .toDynamicValue(() => buildAdapter(runtime, option, false))
        .inTransientScope();
    }
    return new PerEvaluationAdapter();
  }
  return buildAdapter(runtime, option, true);
}

function isAdapterList(
  option: AdapterOption | readonly AdapterOption[],
): option is readonly AdapterOption[] {
  return Array.isArray(option);
}

async function buildAdapter(
  runtime: AffordanceRuntime,
  option: AdapterOption,
  singleton: boolean,
): Promise<ProviderAdapter> {
  const container = runtime.container;
  if (isAdapterClass(option)) {
    return explainUnbuildable(option, () => {
      if (!singleton) {
        if (!container.isBound(option)) container.bind(option).toSelf().inTransientScope();
        return container.get(option);
      }
      if (!container.isBound(ProviderAdapter))
        container.bind(ProviderAdapter).to(option).inSingletonScope();
      return container.get(ProviderAdapter);
    });
  }
  const adapter: unknown = await option(runtime);
  if (!isAdapter(adapter)) {
    throw new ConfigurationError({
      subject: 'AffordanceModule adapter factory',
      problem: `returned ${describe(adapter)}, not a ProviderAdapter.`,
      fix: `Return an adapter, e.g. ${scriptedFactory}.`,
    });
  }
  if (singleton && !container.isBound(ProviderAdapter))
    container.bind(ProviderAdapter).toConstantValue(adapter);
  return adapter;
}

/** Runs `build`, turning inversify's errors about an adapter class it cannot construct into advice. */
function explainUnbuildable(
  option: Newable<ProviderAdapter>,
  build: () => ProviderAdapter,
): ProviderAdapter {
  try {
    return build();
  } catch (error) {
    if (ConfigurationError.is(error)) throw error;
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    throw new ConfigurationError({
      subject: `AffordanceModule adapter ${option.name}`,
      problem: `the runtime's inversify container cannot build this class: ${reason.slice(0, 300)}`,
      fix:
        `Pass a factory that builds it instead, e.g. adapter: () => new ${option.name}(...) ` +
        `(for a scripted model: ${scriptedFactory}), or give its constructor parameters @inject() ` +
        'decorators and bind what they name with the configure option.',
      cause: error,
    });
  }
}

/** Checks the options of the module when it is declared. @internal */
export function assertAdapterOption(
  option: unknown,
  where: string,
): asserts option is AdapterOption | readonly AdapterOption[] {
  if (Array.isArray(option)) {
    if (option.length === 0) {
      throw new ConfigurationError({
        subject: where,
        problem: 'options.adapter is an empty list.',
        fix: 'List the adapters to fall back across, in order, e.g. adapter: [OpenAIAdapter, () => anthropicAdapter].',
      });
    }
    option.forEach((member: unknown, index) => {
      assertAdapterOption(member, `${where} (options.adapter[${index}])`);
    });
    return;
  }
  if (typeof option === 'function' && isAdapterClass(option as AdapterOption)) {
    const cls = option as Newable<ProviderAdapter>;
    if (!buildable(cls)) {
      throw new ConfigurationError({
        subject: where,
        problem:
          `options.adapter is the ${cls.name} class, which the container cannot build: ` +
          'its constructor takes arguments and the class is not @injectable().',
        fix: `Pass a factory: ${scriptedFactory}; add adapterScope: 'evaluation' to get a fresh script for every request.`,
      });
    }
    return;
  }
  if (typeof option === 'function') return;
  throw new ConfigurationError({
    subject: where,
    problem: `options.adapter must be a ProviderAdapter subclass or a factory, got ${describe(option)}.`,
    fix: `Pass e.g. adapter: OpenAIAdapter, or ${scriptedFactory} to run offline.`,
  });
}

/** Checks `adapterScope` when the module is declared. @internal */
export function assertAdapterScope(scope: unknown, where: string): void {
  if (scope === undefined || scope === 'singleton' || scope === 'evaluation') return;
  throw new ConfigurationError({
    subject: where,
    problem: `options.adapterScope must be 'singleton' or 'evaluation', got ${describe(scope)}.`,
    fix: "Pass adapterScope: 'evaluation' for a new adapter per evaluation, or leave it out for one adapter.",
  });
}

/**
 * What the module gives Nest as `ProviderAdapter` with `adapterScope:
 * 'evaluation'`: every evaluation resolves its own adapter from the runtime's
 * container, so this one only stands for them and sends no requests.
 * @internal
 */
export class PerEvaluationAdapter extends ProviderAdapter {
  override readonly name: string = 'per-evaluation';
  override readonly capabilities: ProviderCapabilities = providerCapabilities();

  /** Never called by the module: each evaluation runs on the adapter built for it. */
  override request(): Promise<ProviderTurn> {
    return Promise.reject(
      new ConfigurationError({
        subject: 'AffordanceModule adapter',
        problem:
          "with adapterScope: 'evaluation' every evaluation builds its own adapter; the module's ProviderAdapter sends no requests itself.",
        fix: 'Run prompts with AffordanceService.evaluate(prompt) or runtime.evaluate(prompt), which build one.',
      }),
    );
  }
}

/**
 * Whether the container can construct `cls`: it takes no constructor
 * arguments, or it is decorated itself (so its parameter types are known).
 */
function buildable(cls: Newable<ProviderAdapter>): boolean {
  return cls.length === 0 || Reflect.getOwnMetadata('design:paramtypes', cls) !== undefined;
}

// Duck-typed rather than `instanceof`, so an adapter from another copy of the package is accepted.
function isAdapterClass(option: AdapterOption): option is Newable<ProviderAdapter> {
  const prototype = (option as { prototype?: unknown }).prototype;
  return isAdapter(prototype);
}

function isAdapter(value: unknown): value is ProviderAdapter {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<'request' | 'toolSpec' | 'validate', unknown>>;
  return (
    typeof candidate.request === 'function' &&
    typeof candidate.toolSpec === 'function' &&
    typeof candidate.validate === 'function'
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') {
    const name = (value.constructor as { name?: string } | undefined)?.name;
    return name === undefined || name === '' ? 'an object' : `an instance of ${name}`;
  }
  return typeof value;
}
