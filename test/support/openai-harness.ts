import { Container } from 'inversify';
import OpenAI, { type ClientOptions } from 'openai';

import { installAffordance } from '../../src/runtime/scope/install-affordance.js';
import { TEST_STATE_SECRET } from '../../src/testing/create-test-runtime.js';
import { OpenAIAdapter, OpenAIAdapterOptions } from '../../src/openai/index.js';
import type { AffordanceRuntime } from '../../src/runtime/affordance-runtime.js';
import { ProviderAdapter } from '../../src/provider/provider-adapter.js';
import type { RuntimeOptions } from '../../src/runtime/runtime-options.js';
import { OpenAITestServer } from './openai-test-server.js';

/** A container wired the way an application would wire it, against a local OpenAI test server. */
export interface OpenAIHarness {
  readonly server: OpenAITestServer;
  readonly container: Container;
  readonly runtime: AffordanceRuntime;
  readonly adapter: OpenAIAdapter;
}

/** Options of {@link startOpenAI}. */
export interface OpenAIHarnessOptions {
  readonly runtime?: RuntimeOptions;
  readonly client?: Partial<ClientOptions>;
}

/**
 * Starts a test server and a container with affordance installed, the real
 * SDK client bound to `OpenAI`, the options bound to `OpenAIAdapterOptions`
 * and `OpenAIAdapter` bound as the `ProviderAdapter`. Retries wait 1-4 ms
 * unless `options.retry` says otherwise.
 */
export async function startOpenAI(
  options: Partial<OpenAIAdapterOptions> = {},
  setup: OpenAIHarnessOptions = {},
): Promise<OpenAIHarness> {
  const server = await OpenAITestServer.start();
  const container = new Container();
  const runtime = installAffordance(container, {
    stateSecret: TEST_STATE_SECRET,
    ...setup.runtime,
  });
  container.bind(OpenAI).toConstantValue(server.client(setup.client));
  container.bind(OpenAIAdapterOptions).toConstantValue({
    model: 'gpt-test',
    ...options,
    retry: { initialDelayMs: 1, maxDelayMs: 4, ...options.retry },
  });
  container.bind(ProviderAdapter).to(OpenAIAdapter).inSingletonScope();
  const adapter = container.get(ProviderAdapter);
  if (!(adapter instanceof OpenAIAdapter))
    throw new Error('ProviderAdapter is not the OpenAIAdapter');
  return { server, container, runtime, adapter };
}
