import 'reflect-metadata';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Container } from 'inversify';
import { installAffordance, ProviderAdapter, Session } from 'affordance';
import { openTelemetry } from 'affordance/otel';
import { ScriptedAdapter } from 'affordance/testing';

import { orderPrompt } from '../testing/order-agent.js';

/** Traces one evaluation into an in-memory exporter and prints each span as it ends. */
export async function traceOneEvaluation(): Promise<void> {
  // Any OpenTelemetry SDK works; in production, the Node SDK with your exporter (OTLP, ...).
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });

  const container = new Container();
  const runtime = installAffordance(container, { telemetry: openTelemetry({ tracerProvider }) });
  container
    .bind(ProviderAdapter)
    .toConstantValue(
      new ScriptedAdapter([
        { toolCalls: [{ name: 'order_status', arguments: { orderId: 'A-7' } }] },
        { text: 'A-7 has shipped.' },
      ]),
    );
  await runtime.evaluate(orderPrompt, { input: 'Where is A-7?', session: new Session() });

  for (const span of exporter.getFinishedSpans()) {
    const outcome = span.attributes['affordance.tool.outcome'];
    console.log(`${span.name}${outcome === undefined ? '' : ` (${String(outcome)})`}`);
  }
}
