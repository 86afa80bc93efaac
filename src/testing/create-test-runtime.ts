import { Container } from 'inversify';

import { installAffordance } from '../runtime/scope/install-affordance.js';
import type { AffordanceRuntime } from '../runtime/affordance-runtime.js';
import { ProviderAdapter } from '../provider/provider-adapter.js';
import type { RuntimeOptions } from '../runtime/runtime-options.js';
import { ScriptedAdapter, type ScriptedTurn } from './scripted-adapter.js';

/** Options of {@link createTestRuntime}. */
export interface TestRuntimeOptions {
  /** The scripted model turns. */
  readonly script?: readonly ScriptedTurn[];
  /** Runtime options (maxTurns, clock, resources...). */
  readonly runtime?: RuntimeOptions;
  /** Binds the application's services, e.g. `(c) => c.bind(EntityStore).toSelf().inSingletonScope()`. */
  readonly configure?: (container: Container) => void;
  /** An existing application container to install into; a new one by default. */
  readonly container?: Container;
}

/** What {@link createTestRuntime} returns. */
export interface TestRuntime {
  /** The application container. */
  readonly container: Container;
  /** The installed runtime. */
  readonly runtime: AffordanceRuntime;
  /** The scripted adapter, also bound as `ProviderAdapter`. */
  readonly adapter: ScriptedAdapter;
}

/**
 * A container with affordance installed and a {@link ScriptedAdapter} bound as
 * the `ProviderAdapter`: the one-liner for testing an agent offline.
 *
 * @example
 * const { adapter } = createTestRuntime({ script, configure: (c) => c.bind(EntityStore).toSelf() });
 * const response = await adapter.evaluate(prompt, { session });
 */
export function createTestRuntime(options: TestRuntimeOptions = {}): TestRuntime {
  const container = options.container ?? new Container();
  const runtime = installAffordance(container, options.runtime);
  const adapter = new ScriptedAdapter(runtime, options.script ?? []);
  container.bind(ProviderAdapter).toConstantValue(adapter);
  options.configure?.(container);
  return { container, runtime, adapter };
}
