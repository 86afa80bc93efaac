import { createServer } from 'node:net';

import OpenAI from 'openai';

import { OpenAIAdapter } from 'affordance/openai';
import { FallbackAdapter, RoutingAdapter } from 'affordance/provider';
import { type AdapterHarness, adapterConformanceChecks } from 'affordance/testing';

import { anthropicHarness } from './anthropic-harness.js';
import { openAIHarness } from './openai-harness.js';

/*
 * The composite adapters pass the conformance checks as any adapter must:
 * - a FallbackAdapter whose first member (the real OpenAI SDK) finds its
 *   connection refused on every request, so every turn is served by the
 *   second member, the real AnthropicAdapter against its local test server;
 * - a RoutingAdapter whose route function picks the OpenAIAdapter of the
 *   OpenAI harness for every request (the turns carried through its
 *   provider-item envelopes and back).
 */

/** A base URL where nothing listens: a port taken, then freed. */
async function refusingBaseURL(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  return `http://127.0.0.1:${port}/v1`;
}

function fallbackHarness(inner: AdapterHarness): AdapterHarness {
  return {
    name: `FallbackAdapter (refused, then ${inner.name})`,
    async open(script, options) {
      const opened = await inner.open(script, options);
      const client = new OpenAI({ apiKey: 'sk-test', baseURL: await refusingBaseURL() });
      const down = new OpenAIAdapter(client, { model: 'gpt-down', retry: { maxRetries: 0 } });
      return {
        adapter: new FallbackAdapter([down, opened.adapter]),
        requests: opened.requests,
        close: opened.close,
      };
    },
    toolResultsOf: inner.toolResultsOf,
  };
}

function routingHarness(inner: AdapterHarness): AdapterHarness {
  return {
    name: `RoutingAdapter (over ${inner.name})`,
    async open(script, options) {
      const opened = await inner.open(script, options);
      return {
        adapter: new RoutingAdapter({
          routes: { only: opened.adapter },
          route: () => 'only',
        }),
        requests: opened.requests,
        close: opened.close,
      };
    },
    toolResultsOf: inner.toolResultsOf,
  };
}

describe('FallbackAdapter conformance (OpenAI refused, AnthropicAdapter answers)', () => {
  const harness = fallbackHarness(anthropicHarness());
  for (const check of adapterConformanceChecks) it(check.name, () => check.run(harness));
});

describe('RoutingAdapter conformance (over OpenAIAdapter)', () => {
  const harness = routingHarness(openAIHarness('responses'));
  for (const check of adapterConformanceChecks) it(check.name, () => check.run(harness));
});
