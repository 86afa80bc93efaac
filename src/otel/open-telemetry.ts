import {
  createNoopMeter,
  type MeterProvider,
  metrics,
  trace,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import type {
  DirectCallStart,
  EvaluationObserver,
  EvaluationStart,
  RuntimeTelemetry,
} from '../index.js';

import { DirectCallTrace } from './direct-call-trace.js';
import { EvaluationSpan } from './evaluation-span.js';
import { INSTRUMENTATION_NAME } from './gen-ai-attributes.js';
import { GenAiInstruments } from './gen-ai-instruments.js';

/** Options of {@link openTelemetry}. */
export interface OpenTelemetryOptions {
  /**
   * Record content: the rendered prompt, the input, each request's messages
   * and answer, tool arguments and results, denial and approval reasons, and
   * error messages (which may quote any of these). Off by default: spans and
   * metrics then carry names, ids, counts, outcomes and error types only.
   * Adapter options and API keys are never recorded either way; what the
   * model itself was sent or said is, so turn this on only where such data
   * may be kept.
   */
  readonly captureContent?: boolean | undefined;
  /** Where spans go; the globally registered tracer provider by default. */
  readonly tracerProvider?: TracerProvider | undefined;
  /** Where metrics go; the globally registered meter provider by default. */
  readonly meterProvider?: MeterProvider | undefined;
}

/**
 * Traces and measures evaluations with OpenTelemetry, following the semantic
 * conventions for generative AI: an `invoke_agent {prompt}` span per
 * evaluation (its id, session, provider, model, usage and how it ended), a
 * `chat {model}` client span per provider request (finish reason, usage,
 * response model), an `execute_tool {tool}` span per tool call (call id,
 * outcome, `error.type`; denials, approvals and rollbacks as events), and the
 * `gen_ai.client.token.usage`, `gen_ai.client.operation.duration` and
 * `gen_ai.execute_tool.duration` histograms. A tool's nested evaluation is a
 * child of the tool call's span, and the handler runs in that span's context,
 * so spans it starts itself nest there too (with an async context manager
 * registered, as the Node SDK's tracer provider does). Built on
 * `@opentelemetry/api` alone: register any SDK and exporter. While neither a
 * tracer nor a meter provider is registered (nor given), evaluations go
 * unobserved, so they cost what they cost without telemetry; each evaluation
 * checks anew, so an SDK registered later is followed from then on.
 *
 * @example
 * installAffordance(container, { telemetry: openTelemetry({ captureContent: false }) });
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): RuntimeTelemetry {
  return new OpenTelemetryTelemetry(options);
}

/** The {@link RuntimeTelemetry} behind {@link openTelemetry}. */
class OpenTelemetryTelemetry implements RuntimeTelemetry {
  readonly #tracer: Tracer;
  /** The global tracer provider when none was given: observed only once it has an SDK behind it. */
  readonly #globalTracers: DelegatingTracerProvider | undefined;
  readonly #meterProvider: MeterProvider | undefined;
  readonly #captureContent: boolean;
  /** The instruments of the meter provider they were made by. */
  #instruments: Instruments | undefined;

  constructor(options: OpenTelemetryOptions) {
    // The global tracer provider is a proxy: a tracer got now follows an SDK registered later.
    const tracers = options.tracerProvider ?? trace.getTracerProvider();
    this.#tracer = tracers.getTracer(INSTRUMENTATION_NAME);
    this.#globalTracers = options.tracerProvider === undefined ? delegating(tracers) : undefined;
    this.#meterProvider = options.meterProvider;
    this.#captureContent = options.captureContent === true;
  }

  startEvaluation(start: EvaluationStart): EvaluationObserver | undefined {
    const current = this.#currentInstruments();
    if (current.noop && this.#noTracerProvider()) return undefined;
    return new EvaluationSpan(this.#tracer, current.instruments, start, this.#captureContent);
  }

  startDirectCall(start: DirectCallStart): EvaluationObserver | undefined {
    const current = this.#currentInstruments();
    if (current.noop && this.#noTracerProvider()) return undefined;
    return new DirectCallTrace(this.#tracer, current.instruments, start, this.#captureContent);
  }

  /** Whether spans go nowhere: the global tracer provider has no SDK behind it. */
  #noTracerProvider(): boolean {
    const global = this.#globalTracers;
    return global !== undefined && global.getDelegateTracer(INSTRUMENTATION_NAME) === undefined;
  }

  /**
   * The histograms of the current meter provider: the global one has no
   * proxy, so instruments made before an SDK was registered would stay
   * no-ops; they are made again when the provider changes.
   */
  #currentInstruments(): Instruments {
    const provider = this.#meterProvider ?? metrics.getMeterProvider();
    const current = this.#instruments;
    if (current?.provider === provider) return current;
    const meter = provider.getMeter(INSTRUMENTATION_NAME);
    const made: Instruments = {
      provider,
      instruments: new GenAiInstruments(meter),
      noop: meter === createNoopMeter(),
    };
    this.#instruments = made;
    return made;
  }
}

/**
 * The global tracer provider of `@opentelemetry/api` 1.x: a proxy that says
 * whether an SDK stands behind it. A provider without the method (another
 * API version) is never taken for a no-op: evaluations are then observed.
 */
interface DelegatingTracerProvider extends TracerProvider {
  getDelegateTracer(name: string): Tracer | undefined;
}

function delegating(provider: TracerProvider): DelegatingTracerProvider | undefined {
  const candidate = provider as Partial<DelegatingTracerProvider>;
  return typeof candidate.getDelegateTracer === 'function'
    ? (provider as DelegatingTracerProvider)
    : undefined;
}

/** The histograms of one meter provider, and whether it is the API's no-op. */
interface Instruments {
  readonly provider: MeterProvider;
  readonly instruments: GenAiInstruments;
  readonly noop: boolean;
}
