/**
 * The real OpenTelemetry SDK, in memory: a tracer provider exporting to an
 * `InMemorySpanExporter`, a meter provider read on demand, and the
 * AsyncLocalStorage context manager a Node SDK registers. Plus the helpers
 * the tests read spans with.
 */
import { context, type Attributes, type AttributeValue } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  type DataPoint,
  type Histogram,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  type Span,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

import type { RuntimeTelemetry } from 'affordance';
import { openTelemetry, type OpenTelemetryOptions } from 'affordance/otel';

// As the Node SDK's tracer provider does; a second registration in the same file is refused, harmlessly.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

/** A metric reader collected on demand. */
class OnDemandReader extends MetricReader {
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** Notes the order spans start in (their start times can be equal to the clock's resolution). */
class StartOrder implements SpanProcessor {
  readonly ids: string[] = [];
  onStart(span: Span): void {
    this.ids.push(span.spanContext().spanId);
  }
  onEnd(): void {
    // Only the start order is of interest.
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** One SDK: spans and metrics in memory. */
export class InMemoryOtel {
  readonly exporter = new InMemorySpanExporter();
  readonly #order = new StartOrder();
  readonly tracerProvider = new BasicTracerProvider({
    spanProcessors: [this.#order, new SimpleSpanProcessor(this.exporter)],
  });
  readonly reader = new OnDemandReader();
  readonly meterProvider = new MeterProvider({ readers: [this.reader] });

  /** `openTelemetry(options)` sending to this SDK. */
  telemetry(options: OpenTelemetryOptions = {}): RuntimeTelemetry {
    return openTelemetry(
      Object.assign({}, options, {
        tracerProvider: this.tracerProvider,
        meterProvider: this.meterProvider,
      }),
    );
  }

  /** The finished spans, in the order they started. */
  spans(): ReadableSpan[] {
    const at = (span: ReadableSpan): number => this.#order.ids.indexOf(span.spanContext().spanId);
    return [...this.exporter.getFinishedSpans()].sort((a, b) => at(a) - at(b));
  }

  /** The data points of histogram `name`, with their attributes. */
  async histogram(name: string): Promise<DataPoint<Histogram>[]> {
    const { resourceMetrics } = await this.reader.collect();
    for (const scope of resourceMetrics.scopeMetrics) {
      for (const metric of scope.metrics) {
        if (metric.descriptor.name === name) return metric.dataPoints as DataPoint<Histogram>[];
      }
    }
    return [];
  }
}

/** The span tree as indented lines `name [kind]`, children in start order. */
export function spanTree(spans: readonly ReadableSpan[]): string[] {
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const lines: string[] = [];
  const visit = (parent: string | undefined, depth: number): void => {
    for (const span of spans) {
      const own = span.parentSpanContext?.spanId;
      const isChild = parent === undefined ? own === undefined || !ids.has(own) : own === parent;
      if (!isChild) continue;
      lines.push(`${'  '.repeat(depth)}${span.name} [${kindName(span.kind)}]`);
      visit(span.spanContext().spanId, depth + 1);
    }
  };
  visit(undefined, 0);
  return lines;
}

function kindName(kind: number): string {
  return ['internal', 'server', 'client', 'producer', 'consumer'][kind] ?? String(kind);
}

/** The one span named `name` (fails when there are none or several). */
export function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  if (found.length !== 1) throw new Error(`expected one span '${name}', found ${found.length}`);
  return found[0] as ReadableSpan;
}

/** Whether `child`'s parent is `parent`. */
export function isChildOf(child: ReadableSpan, parent: ReadableSpan): boolean {
  return child.parentSpanContext?.spanId === parent.spanContext().spanId;
}

/** The names of a span's events. */
export function eventNames(span: ReadableSpan): string[] {
  return span.events.map((event) => event.name);
}

/** Every attribute of every span and span event: `[key, value]` pairs. */
export function everyAttribute(spans: readonly ReadableSpan[]): [string, AttributeValue][] {
  const pairs: [string, AttributeValue][] = [];
  const add = (attributes: Attributes | undefined): void => {
    for (const [key, value] of Object.entries(attributes ?? {})) {
      if (value !== undefined) pairs.push([key, value]);
    }
  };
  for (const span of spans) {
    add(span.attributes);
    for (const event of span.events) add(event.attributes);
  }
  return pairs;
}

/** The attributes that hold content, by the conventions and affordance's own. */
export const CONTENT_KEYS = [
  'gen_ai.system_instructions',
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
  'affordance.denial.message',
  'affordance.approval.reason',
];
