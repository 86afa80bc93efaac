/**
 * What tracing costs a scripted evaluation: two turns, three validated tool
 * calls (one fails and is rolled back), the answer, on the `ScriptedAdapter`
 * (no network, so the runtime's own work is all there is to slow down):
 * - tracing off (no `telemetry` option): the baseline;
 * - `openTelemetry()` with no SDK registered: it sees none and leaves each
 *   evaluation unobserved (goal ≤ ×1.03 of tracing off);
 * - `openTelemetry()` handed the API's no-op providers explicitly, so it
 *   observes every evaluation and each span and metric call is a no-op: the
 *   cost of the observer itself (what a sampled-out trace pays; no goal);
 * - `openTelemetry()` on a real SDK in memory (a `BasicTracerProvider` with a
 *   `SimpleSpanProcessor` into an `InMemorySpanExporter`, a `MeterProvider`
 *   aggregating the three histograms), with the AsyncLocalStorage context
 *   manager registered as a Node SDK does: what recording costs (no goal),
 *   beside tracing off plus the same 6 spans and 9 histogram records made by
 *   hand on that SDK (the SDK's own share).
 */
import 'reflect-metadata';

import {
  type Attributes,
  context,
  createNoopMeter,
  type Meter,
  SpanKind,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { IsInt, IsString, Min } from 'class-validator';
import { Container } from 'inversify';

import {
  installAffordance,
  MarkdownSection,
  Prompt,
  type RuntimeOptions,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import { openTelemetry } from 'affordance/otel';
import { ScriptedAdapter, type ScriptedTurn } from 'affordance/testing';

import { compare } from './measure.js';

class OrderParams {
  @IsString() orderId!: string;
}

class ChargeParams {
  @IsString() orderId!: string;
  @IsInt() @Min(1) amount!: number;
}

const prompt = new Prompt({
  ns: 'bench',
  key: 'telemetry',
  sections: [
    new MarkdownSection({
      key: 'desk',
      title: 'Desk',
      template: 'Settle orders.',
      tools: [
        new ToolDefinition({
          name: 'lookup_order',
          description: 'Look an order up.',
          params: OrderParams,
          readOnly: true,
          handler: (params) => ToolResult.ok({ total: 120 }, `Order ${params.orderId}.`),
        }),
        new ToolDefinition({
          name: 'charge_card',
          description: 'Charge a card.',
          params: ChargeParams,
          handler: (params) =>
            params.amount > 100
              ? ToolResult.error('Card declined.')
              : ToolResult.ok(null, `Charged ${params.amount}.`),
        }),
      ],
    }),
  ],
});

const script: readonly ScriptedTurn[] = [
  {
    toolCalls: [
      { name: 'lookup_order', arguments: { orderId: 'A-1' } },
      { name: 'charge_card', arguments: { orderId: 'A-1', amount: 500 } },
      { name: 'charge_card', arguments: { orderId: 'A-1', amount: 50 } },
    ],
    usage: { inputTokens: 300, outputTokens: 40 },
  },
  { text: 'Settled.', usage: { inputTokens: 420, outputTokens: 6 } },
];

/** One scripted evaluation on a runtime installed with `options`. */
function evaluation(options: RuntimeOptions): () => Promise<void> {
  const runtime = installAffordance(new Container(), options);
  runtime.prepare(prompt);
  return async () => {
    const response = await runtime.evaluate(prompt, { adapter: new ScriptedAdapter(script) });
    if (response.text !== 'Settled.' || response.toolCalls.length !== 3) {
      throw new Error('unexpected response');
    }
  };
}

/**
 * The spans and records `openTelemetry()` makes for one such evaluation, made
 * by hand with about as many attributes: the SDK's own cost.
 */
function byHand(tracer: Tracer, meter: Meter): () => void {
  const duration = meter.createHistogram('bench.duration', { unit: 's' });
  const tokens = meter.createHistogram('bench.tokens', { unit: '{token}' });
  const attributes = (count: number): Attributes =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`bench.attribute.${i}`, i]));
  const agentAttributes = attributes(12);
  const chatAttributes = attributes(7);
  const toolAttributes = attributes(5);
  const metricAttributes = attributes(4);
  return () => {
    const agent = tracer.startSpan('invoke_agent', { attributes: agentAttributes });
    const parent = trace.setSpan(context.active(), agent);
    for (let turn = 0; turn < 2; turn++) {
      const chat = tracer.startSpan(
        'chat',
        { kind: SpanKind.CLIENT, attributes: chatAttributes },
        parent,
      );
      chat.setAttributes(toolAttributes);
      chat.end();
      duration.record(0.001, metricAttributes);
      tokens.record(300, metricAttributes);
      tokens.record(40, metricAttributes);
    }
    for (let call = 0; call < 3; call++) {
      const tool = tracer.startSpan('execute_tool', { attributes: toolAttributes }, parent);
      context.with(trace.setSpan(parent, tool), () => undefined);
      tool.setAttribute('bench.outcome', 'success');
      tool.end();
      duration.record(0.001, metricAttributes);
    }
    agent.setAttributes(toolAttributes);
    agent.end();
  };
}

class QuietReader extends MetricReader {
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

export default async function run(): Promise<void> {
  const off = 'tracing off (no telemetry option)';
  await compare(
    'A scripted evaluation (2 turns, 3 tool calls): tracing off vs openTelemetry() without an SDK',
    [
      { name: off, run: evaluation({}) },
      {
        name: 'openTelemetry(), no SDK registered',
        run: evaluation({ telemetry: openTelemetry() }),
        goal: 1.03,
      },
      {
        name: 'openTelemetry(), observing into the API no-ops',
        run: evaluation({
          telemetry: openTelemetry({
            // Given explicitly, they are used as they are: every call reaches a no-op.
            tracerProvider: trace.getTracerProvider(),
            meterProvider: { getMeter: () => createNoopMeter() },
          }),
        }),
      },
    ],
    { baseline: off, batch: 500, rounds: 31 },
  );

  // A Node SDK registers an AsyncLocalStorage context manager; from here on every contender runs with it.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const meterProvider = new MeterProvider({ readers: [new QuietReader()] });
  const recorded = evaluation({ telemetry: openTelemetry({ tracerProvider, meterProvider }) });
  const plain = evaluation({});
  const sdkWork = byHand(tracerProvider.getTracer('bench'), meterProvider.getMeter('bench'));
  let runs = 0;
  const keepFlat = (): void => {
    // Keep memory flat: the exporter would hold every span.
    runs += 1;
    if (runs % 100 === 0) exporter.reset();
  };
  await compare(
    'The same evaluation recorded by a real SDK in memory (6 spans, 3 histograms)',
    [
      { name: off, run: evaluation({}) },
      {
        name: 'openTelemetry(), in-memory SDK',
        run: async () => {
          await recorded();
          keepFlat();
        },
      },
      {
        name: 'tracing off + the same spans and records by hand',
        run: async () => {
          await plain();
          sdkWork();
          keepFlat();
        },
      },
    ],
    { baseline: off, batch: 500, rounds: 31 },
  );
}
