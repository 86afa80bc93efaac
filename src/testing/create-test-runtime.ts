import { Container } from 'inversify';

import {
  type AffordanceRuntime,
  type EvaluateOptions,
  installAffordance,
  type Prompt,
  type PromptResponse,
  ProviderAdapter,
  type RuntimeOptions,
} from '../index.js';
import { ScriptedAdapter, type ScriptedTurn } from './scripted-adapter.js';

/**
 * The `stateSecret` of every {@link createTestRuntime} runtime whose options
 * give none (and do not ask for unsigned states): states its evaluations save
 * are signed, and resume in any other test runtime, as in production with a
 * shared secret. A test secret only: it is public, so never configure it in
 * an application.
 */
export const TEST_STATE_SECRET = 'affordance-test-state-secret (public, tests only)';

/** Options of {@link createTestRuntime}. */
export interface TestRuntimeOptions {
  /** The scripted model turns. */
  readonly script?: readonly ScriptedTurn[];
  /**
   * Runtime options (maxTurns, clock, resources...). `stateSecret` defaults to
   * {@link TEST_STATE_SECRET} unless `unsignedStates` is `'accept-forgeable'`.
   */
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
  /**
   * `runtime.evaluate(prompt, options)`, then `adapter.assertDone()`: the
   * evaluation fails when the script has turns left that nobody asked for.
   */
  evaluate<O>(prompt: Prompt<O>, options?: EvaluateOptions): Promise<PromptResponse<O>>;
}

/**
 * A container with affordance installed and a {@link ScriptedAdapter} bound as
 * the `ProviderAdapter`: the one-liner for testing an agent offline. The
 * runtime signs evaluation states with {@link TEST_STATE_SECRET} unless its
 * options say otherwise, so a test pauses and resumes without configuring one.
 *
 * @example
 * const agent = createTestRuntime({ script, configure: (c) => c.bind(EntityStore).toSelf() });
 * const response = await agent.evaluate(prompt, { session });
 */
export function createTestRuntime(options: TestRuntimeOptions = {}): TestRuntime {
  const container = options.container ?? new Container();
  const given = options.runtime ?? {};
  const unsigned = given.stateSecret === undefined && given.unsignedStates === 'accept-forgeable';
  const runtime = installAffordance(
    container,
    given.stateSecret !== undefined || unsigned
      ? given
      : Object.assign({}, given, { stateSecret: TEST_STATE_SECRET }),
  );
  const adapter = new ScriptedAdapter(options.script ?? []);
  container.bind(ProviderAdapter).toConstantValue(adapter);
  options.configure?.(container);
  return {
    container,
    runtime,
    adapter,
    async evaluate<O>(prompt: Prompt<O>, evaluateOptions?: EvaluateOptions) {
      const response = await runtime.evaluate(prompt, { adapter, ...evaluateOptions });
      adapter.assertDone();
      return response;
    },
  };
}
