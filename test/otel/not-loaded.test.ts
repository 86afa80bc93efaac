/**
 * Without a `telemetry` option, nothing of affordance/otel, nor
 * `@opentelemetry/api`, is loaded: both are replaced by modules that note
 * when they are loaded, and an evaluation runs through the public entry
 * points. The last test loads affordance/otel, to show the probe would see it.
 */
import { createRequire } from 'node:module';

import { jest } from '@jest/globals';

const loaded: string[] = [];

jest.unstable_mockModule('@opentelemetry/api', () => {
  loaded.push('@opentelemetry/api');
  // The real API (CommonJS), so a module importing it still links.
  return Object.assign({}, createRequire(import.meta.url)('@opentelemetry/api') as object);
});
jest.unstable_mockModule('affordance/otel', () => {
  loaded.push('affordance/otel');
  return { openTelemetry: () => undefined, recordRetry: () => undefined };
});

describe('otel: not loaded unless used', () => {
  it('runs a scripted evaluation with tool calls without loading affordance/otel or @opentelemetry/api', async () => {
    const affordance = await import('affordance');
    const testing = await import('affordance/testing');
    await import('affordance/provider');
    const { deskPrompt, deskScript, INPUT } = await import('./otel-desk.js');

    const agent = testing.createTestRuntime({ script: deskScript() });
    const response = await agent.evaluate(deskPrompt(), { input: INPUT });
    const streamed = testing.createTestRuntime({ script: deskScript() });
    for await (const part of streamed.runtime.stream(deskPrompt(), {
      adapter: streamed.adapter,
      input: INPUT,
    })) {
      if (part.type === 'error') throw part.error;
    }

    expect(response.status).toBe('completed');
    expect(response.toolCalls).toHaveLength(4);
    expect(typeof affordance.installAffordance).toBe('function');
    expect(loaded).toEqual([]);
  });

  it('would notice: importing affordance/otel loads both', async () => {
    // A module behind the (mocked) barrel: it imports @opentelemetry/api.
    await import('../../src/otel/open-telemetry.js');

    expect(loaded).toEqual(['@opentelemetry/api']);
    await import('affordance/otel');
    expect(loaded).toEqual(['@opentelemetry/api', 'affordance/otel']);
  });
});
