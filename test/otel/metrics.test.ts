import { metrics, trace } from '@opentelemetry/api';
import { Container } from 'inversify';

import { type EvaluationStart, installAffordance } from 'affordance';
import { openTelemetry } from 'affordance/otel';
import { ScriptedAdapter } from 'affordance/testing';

import { deskPrompt, deskScript, INPUT, ModelledScriptedAdapter } from './otel-desk.js';
import { InMemoryOtel, spanTree } from './otel-harness.js';

/** Runs the desk's two-turn evaluation (with its nested one) under `telemetry`. */
async function runDesk(telemetry: ReturnType<typeof openTelemetry>): Promise<void> {
  const runtime = installAffordance(new Container(), { telemetry });
  const adapter = new ModelledScriptedAdapter(deskScript());
  await runtime.evaluate(deskPrompt(), { adapter, input: INPUT });
  adapter.assertDone();
}

/** `[attribute value, count, sum]` per data point, sorted, for a readable comparison. */
function summary(
  points: readonly {
    attributes: Record<string, unknown>;
    value: { count: number; sum?: number };
  }[],
  key: string,
): [unknown, number, number | undefined][] {
  return points
    .map((point): [unknown, number, number | undefined] => [
      point.attributes[key],
      point.value.count,
      point.value.sum,
    ])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
}

describe('otel: metrics', () => {
  it('records gen_ai.client.token.usage per request, by token type, with provider and model', async () => {
    const otel = new InMemoryOtel();
    await runDesk(otel.telemetry());
    const points = await otel.histogram('gen_ai.client.token.usage');

    // Three requests: the desk's two and the nested evaluation's one.
    expect(summary(points, 'gen_ai.token.type')).toEqual([
      ['input', 3, 120 + 40 + 200],
      ['output', 3, 30 + 8 + 12],
    ]);
    for (const point of points) {
      expect(point.attributes).toEqual({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'scripted',
        'gen_ai.request.model': 'scripted-model-1',
        'gen_ai.token.type': point.attributes['gen_ai.token.type'],
      });
    }
  });

  it('records gen_ai.client.operation.duration per request and gen_ai.execute_tool.duration per call', async () => {
    const otel = new InMemoryOtel();
    await runDesk(otel.telemetry());
    const requests = await otel.histogram('gen_ai.client.operation.duration');
    const calls = await otel.histogram('gen_ai.execute_tool.duration');

    expect(requests.map((point) => point.value.count)).toEqual([3]);
    expect(summary(calls, 'gen_ai.tool.name').map(([name, count]) => [name, count])).toEqual([
      ['charge_card', 1],
      ['close_account', 1],
      ['lookup_order', 1],
      ['research', 1],
    ]);
    const errorOf = (name: string): unknown =>
      calls.find((point) => point.attributes['gen_ai.tool.name'] === name)?.attributes[
        'error.type'
      ];
    expect(['lookup_order', 'charge_card', 'close_account', 'research'].map(errorOf)).toEqual([
      undefined,
      'tool_error',
      'denied',
      undefined,
    ]);
    // A call's duration covers the nested evaluation it ran: it is at least that request's.
    const research = calls.find((point) => point.attributes['gen_ai.tool.name'] === 'research');
    expect(research?.value.sum).toBeGreaterThan(0);
  });

  it('follows an SDK registered globally after openTelemetry() was created', async () => {
    const otel = new InMemoryOtel();
    const telemetry = openTelemetry();
    trace.setGlobalTracerProvider(otel.tracerProvider);
    metrics.setGlobalMeterProvider(otel.meterProvider);
    try {
      await runDesk(telemetry);
    } finally {
      trace.disable();
      metrics.disable();
    }

    expect(spanTree(otel.spans())[0]).toBe('invoke_agent desk/orders [internal]');
    expect(otel.spans()).toHaveLength(9);
    const points = await otel.histogram('gen_ai.client.token.usage');
    expect(points.map((point) => point.value.count)).toEqual([3, 3]);
  });

  it('with no SDK registered, evaluates exactly as without telemetry', async () => {
    const outcomesOf = async (withTelemetry: boolean) => {
      const runtime = installAffordance(
        new Container(),
        withTelemetry ? { telemetry: openTelemetry() } : {},
      );
      const adapter = new ModelledScriptedAdapter(deskScript());
      const response = await runtime.evaluate(deskPrompt(), { adapter, input: INPUT });
      return {
        status: response.status,
        text: response.text,
        usage: response.usage?.toJSON(),
        calls: response.toolCalls.map((call) => [call.event.outcome, call.message]),
      };
    };

    const traced = await outcomesOf(true);
    expect(traced).toEqual(await outcomesOf(false));
    expect(traced.calls.map(([outcome]) => outcome)).toEqual([
      'success',
      'failure',
      'denied',
      'success',
    ]);
  });

  it('observes no evaluation while no SDK is registered, and each one once either provider is', async () => {
    const start: EvaluationStart = {
      evaluationId: 'e-1',
      prompt: { name: 'orders', ns: 'desk', key: 'orders', label: 'desk/orders' },
      sessionId: 's-1',
      adapter: new ScriptedAdapter([]),
      streamed: false,
      resumed: false,
      structuredOutput: false,
      renderedPrompt: 'Settle orders.',
      input: undefined,
    };
    const telemetry = openTelemetry();
    const otel = new InMemoryOtel();

    expect(telemetry.startEvaluation(start)).toBeUndefined();
    metrics.setGlobalMeterProvider(otel.meterProvider);
    try {
      expect(telemetry.startEvaluation(start)).toBeDefined();
      // Metrics alone: the evaluation is measured, and its spans go to the API's no-op tracer.
      await runDesk(telemetry);
    } finally {
      metrics.disable();
    }
    expect(telemetry.startEvaluation(start)).toBeUndefined();
    expect((await otel.histogram('gen_ai.client.operation.duration'))[0]?.value.count).toBe(3);
    expect(otel.spans()).toEqual([]);

    trace.setGlobalTracerProvider(otel.tracerProvider);
    try {
      expect(telemetry.startEvaluation(start)).toBeDefined();
    } finally {
      trace.disable();
    }
  });
});
