import type { Newable } from 'inversify';

import { type AffordanceRuntime, ConfigurationError, ProviderAdapter } from '../index.js';
import type { AdapterOption } from './affordance-module-options.js';

/**
 * Builds the module's adapter: a `ProviderAdapter` subclass is bound in the
 * runtime's container and resolved there; a factory is called with the runtime.
 * The adapter is also bound as `ProviderAdapter` in that container.
 * @internal
 */
export async function createAdapter(
  runtime: AffordanceRuntime,
  option: AdapterOption,
): Promise<ProviderAdapter> {
  const container = runtime.container;
  if (isAdapterClass(option)) {
    if (!container.isBound(ProviderAdapter))
      container.bind(ProviderAdapter).to(option).inSingletonScope();
    return container.get(ProviderAdapter);
  }
  const adapter: unknown = await option(runtime);
  if (!isAdapter(adapter)) {
    throw new ConfigurationError({
      subject: 'AffordanceModule adapter factory',
      problem: `returned ${describe(adapter)}, not a ProviderAdapter.`,
      fix: 'Return an adapter built on the runtime it receives, e.g. adapter: (runtime) => new ScriptedAdapter(runtime, script).',
    });
  }
  if (!container.isBound(ProviderAdapter)) container.bind(ProviderAdapter).toConstantValue(adapter);
  return adapter;
}

/** Checks the `adapter` option when the module is declared. @internal */
export function assertAdapterOption(
  option: unknown,
  where: string,
): asserts option is AdapterOption {
  if (typeof option === 'function') return;
  throw new ConfigurationError({
    subject: where,
    problem: `options.adapter must be a ProviderAdapter subclass or a factory, got ${describe(option)}.`,
    fix: 'Pass e.g. adapter: OpenAIAdapter, or adapter: (runtime) => new ScriptedAdapter(runtime, script) to run offline.',
  });
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
