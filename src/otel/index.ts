/**
 * affordance/otel: OpenTelemetry tracing and metrics for evaluations, on the
 * semantic conventions for generative AI. Built on `@opentelemetry/api` (an
 * optional peer dependency) alone: register any SDK and exporter. Give
 * {@link openTelemetry} to the runtime as its `telemetry`; the core never
 * loads this entry point.
 *
 * @example
 * installAffordance(container, { telemetry: openTelemetry() });
 * @packageDocumentation
 */
export { openTelemetry, type OpenTelemetryOptions } from './open-telemetry.js';
export { recordFallback } from './record-fallback.js';
export { recordRetry } from './record-retry.js';
export {
  traceContextPropagation,
  type TraceContextPropagation,
} from './trace-context-propagation.js';
