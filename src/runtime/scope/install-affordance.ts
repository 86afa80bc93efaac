import type { Container } from 'inversify';

import { AffordanceRuntime } from '../affordance-runtime.js';
import type { RuntimeOptions } from '../runtime-options.js';
import { assertOwnInversify } from './assert-own-inversify.js';
import { AffordanceContainer } from './tokens.js';

/**
 * Installs affordance in an application container: binds the
 * {@link AffordanceRuntime} (a singleton holding the evaluation loop) and the
 * container itself under `AffordanceContainer`, so every evaluation and tool
 * call can open child scopes of it. Bind a `ProviderAdapter` next.
 *
 * @example
 * const container = new Container();
 * const runtime = installAffordance(container, { maxTurns: 16 });
 * container.bind(ProviderAdapter).to(OpenAIAdapter).inSingletonScope();
 * const response = await runtime.evaluate(prompt, { session });
 *
 * @returns the runtime, also resolvable as `container.get(AffordanceRuntime)`.
 * @throws ConfigurationError when `container` comes from another copy of
 * `inversify` than the one affordance imports (two copies cannot share
 * containers), naming both versions.
 */
export function installAffordance(
  container: Container,
  options: RuntimeOptions = {},
): AffordanceRuntime {
  assertOwnInversify(container, 'installAffordance');
  const runtime = new AffordanceRuntime(container, options);
  container.bind(AffordanceContainer).toConstantValue(container);
  container.bind(AffordanceRuntime).toConstantValue(runtime);
  return runtime;
}
