import { Container } from 'inversify';

import { type AffordanceRuntime, installAffordance } from 'affordance';
import { AiSdkAdapter, type AiSdkAdapterOptions } from 'affordance/ai-sdk';
import { ProviderAdapter, type RetryEvent } from 'affordance/provider';
import { TEST_STATE_SECRET } from 'affordance/testing';

import { WireTestServer } from './ai-sdk-test-server.js';
import type { Wire } from './ai-sdk-wires.js';

/** An adapter over a provider package talking to a wire server, and a runtime using it. */
export interface AiSdkHarness {
  readonly wire: Wire;
  readonly server: WireTestServer;
  readonly runtime: AffordanceRuntime;
  readonly adapter: AiSdkAdapter;
  /** What `retry.onRetry` saw. */
  readonly retries: RetryEvent[];
}

/**
 * Starts `wire`'s test server and a container with affordance installed and
 * an `AiSdkAdapter` over the provider package's model object bound as the
 * `ProviderAdapter`. Retries wait 1-4 ms unless `options.retry` says otherwise.
 */
export async function startAiSdk(
  wire: Wire,
  options: Partial<AiSdkAdapterOptions> = {},
): Promise<AiSdkHarness> {
  const server = await WireTestServer.start(wire.check);
  const container = new Container();
  const runtime = installAffordance(container, { stateSecret: TEST_STATE_SECRET });
  const retries: RetryEvent[] = [];
  const adapter = new AiSdkAdapter({
    model: wire.model(server.origin),
    ...options,
    retry: {
      initialDelayMs: 1,
      maxDelayMs: 4,
      onRetry: (event) => retries.push(event),
      ...options.retry,
    },
  });
  container.bind(ProviderAdapter).toConstantValue(adapter);
  return { wire, server, runtime, adapter, retries };
}

/** Everything an error shows: message, stack, payload and cause chain, as text. */
export function everything(error: unknown): string {
  const seen = new Set<unknown>();
  const parts: string[] = [];
  for (let current: unknown = error; current !== undefined && !seen.has(current);) {
    seen.add(current);
    const record = current as {
      message?: unknown;
      stack?: unknown;
      providerPayload?: unknown;
      cause?: unknown;
    };
    parts.push(String(record.message), String(record.stack));
    parts.push(JSON.stringify(record.providerPayload ?? null));
    parts.push(JSON.stringify(current, Object.getOwnPropertyNames(current)));
    current = record.cause;
  }
  return parts.join('\n');
}
