import type { Newable } from 'inversify';

import {
  type AffordanceRuntime,
  ConfigurationError,
  type Prompt,
  type PromptResponse,
  ProviderAdapter,
  type EvaluateOptions,
  type ProviderRequest,
  type ProviderTurn,
} from '../index.js';
import { ScriptedAdapter } from '../testing/scripted-adapter.js';
import type { AdapterOption, AffordanceModuleOptions } from './affordance-module-options.js';

const scriptedFactory = 'adapter: (runtime) => new ScriptedAdapter(runtime, script)';

/**
 * Builds the module's adapter: a `ProviderAdapter` subclass is bound in the
 * runtime's container and resolved there; a factory is called with the runtime.
 * The adapter is also bound as `ProviderAdapter` in that container. With
 * `adapterScope: 'evaluation'` the adapter returned builds a fresh one for
 * every evaluation.
 * @internal
 */
export async function createAdapter(
  runtime: AffordanceRuntime,
  options: Pick<AffordanceModuleOptions, 'adapter' | 'adapterScope'>,
): Promise<ProviderAdapter> {
  const container = runtime.container;
  const option = options.adapter;
  if (options.adapterScope === 'evaluation') {
    const adapter = new PerEvaluationAdapter(runtime, () => buildAdapter(runtime, option, false));
    if (!container.isBound(ProviderAdapter))
      container.bind(ProviderAdapter).toConstantValue(adapter);
    return adapter;
  }
  return buildAdapter(runtime, option, true);
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
      fix: `Return an adapter built on the runtime it receives, e.g. ${scriptedFactory}.`,
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
        `Pass a factory that builds it instead, e.g. adapter: (runtime) => new ${option.name}(runtime, ...) ` +
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
): asserts option is AdapterOption {
  if (option === ScriptedAdapter) {
    throw new ConfigurationError({
      subject: where,
      problem:
        'options.adapter is the ScriptedAdapter class, which the container cannot build: it needs the script.',
      fix: `Pass a factory: ${scriptedFactory}; add adapterScope: 'evaluation' to get a fresh script for every request.`,
    });
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
 * The module's `ProviderAdapter` with `adapterScope: 'evaluation'`: every
 * `evaluate` builds a new adapter and runs the evaluation on it, so nested
 * evaluations (through `context.adapter`) stay on that adapter.
 * @internal
 */
export class PerEvaluationAdapter extends ProviderAdapter {
  override readonly name: string = 'per-evaluation';
  readonly #build: () => Promise<ProviderAdapter>;

  constructor(runtime: AffordanceRuntime, build: () => Promise<ProviderAdapter>) {
    super(runtime);
    this.#build = build;
  }

  override async evaluate<O>(
    prompt: Prompt<O>,
    options: EvaluateOptions = {},
  ): Promise<PromptResponse<O>> {
    const adapter = await this.#build();
    return await adapter.evaluate(prompt, options);
  }

  /** Never called: each evaluation runs on the adapter built for it. */
  override request(_request: ProviderRequest): Promise<ProviderTurn> {
    return Promise.reject(
      new ConfigurationError({
        subject: 'AffordanceModule adapter',
        problem:
          "with adapterScope: 'evaluation' the module's adapter only starts evaluations; it sends no requests itself.",
        fix: 'Call evaluate() on it (or on AffordanceService), not request().',
      }),
    );
  }
}

// Duck-typed rather than `instanceof`, so an adapter from another copy of the package is accepted.
function isAdapterClass(option: AdapterOption): option is Newable<ProviderAdapter> {
  const prototype = (option as { prototype?: unknown }).prototype;
  return isAdapter(prototype);
}

function isAdapter(value: unknown): value is ProviderAdapter {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<'request' | 'evaluate' | 'validate', unknown>>;
  return (
    typeof candidate.request === 'function' &&
    typeof candidate.evaluate === 'function' &&
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
