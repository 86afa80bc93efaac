import Anthropic, { type ClientOptions } from '@anthropic-ai/sdk';
import { Container } from 'inversify';

import { AnthropicAdapter, AnthropicAdapterOptions } from '../../src/anthropic/index.js';
import { ProviderAdapter } from '../../src/provider/provider-adapter.js';
import type { AffordanceRuntime } from '../../src/runtime/affordance-runtime.js';
import type { RuntimeOptions } from '../../src/runtime/runtime-options.js';
import { installAffordance } from '../../src/runtime/scope/install-affordance.js';
import { TEST_STATE_SECRET } from '../../src/testing/create-test-runtime.js';
import { AnthropicTestServer } from './anthropic-test-server.js';

/** A container wired the way an application would wire it, against a local Anthropic test server. */
export interface AnthropicHarness {
  readonly server: AnthropicTestServer;
  readonly container: Container;
  readonly runtime: AffordanceRuntime;
  readonly adapter: AnthropicAdapter;
}

/** Options of {@link startAnthropic}. */
export interface AnthropicHarnessOptions {
  readonly runtime?: RuntimeOptions;
  readonly client?: Partial<ClientOptions>;
}

/**
 * Starts a test server and a container with affordance installed, the real
 * SDK client bound to `Anthropic`, the options to `AnthropicAdapterOptions`
 * and `AnthropicAdapter` as the `ProviderAdapter`. Retries wait 1-4 ms unless
 * `options.retry` says otherwise.
 */
export async function startAnthropic(
  options: Partial<AnthropicAdapterOptions> = {},
  setup: AnthropicHarnessOptions = {},
): Promise<AnthropicHarness> {
  const server = await AnthropicTestServer.start();
  const container = new Container();
  const runtime = installAffordance(container, {
    stateSecret: TEST_STATE_SECRET,
    ...setup.runtime,
  });
  container.bind(Anthropic).toConstantValue(server.client(setup.client));
  container.bind(AnthropicAdapterOptions).toConstantValue({
    model: 'claude-test',
    ...options,
    retry: { initialDelayMs: 1, maxDelayMs: 4, ...options.retry },
  });
  container.bind(ProviderAdapter).to(AnthropicAdapter).inSingletonScope();
  const adapter = container.get(ProviderAdapter);
  if (!(adapter instanceof AnthropicAdapter))
    throw new Error('ProviderAdapter is not the AnthropicAdapter');
  return { server, container, runtime, adapter };
}
