import {
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  propagation,
  type TextMapPropagator,
} from '@opentelemetry/api';

/**
 * Carries the active trace from where a job is added to where it runs, in
 * the job's data (the shape `affordance/bullmq` takes as its `propagation`
 * option, on the queue and on the worker).
 */
export interface TraceContextPropagation {
  /** The active context as text fields (W3C `traceparent`, `tracestate`, ... as the propagator writes them). */
  capture(): Record<string, string>;
  /** Runs `run` with the context `fields` describe as the active one. */
  restore<T>(fields: Readonly<Record<string, string>>, run: () => Promise<T>): Promise<T>;
}

/**
 * Trace propagation for jobs: give it to `EvaluationQueue` and
 * `createEvaluationWorker` as `propagation`, and the worker's evaluation
 * span becomes a child of the span that was active when the job was added
 * (the HTTP request that enqueued it), in the same trace. Uses the
 * propagator registered with `@opentelemetry/api` (a Node SDK registers the
 * W3C trace context one), or `propagator` when given.
 *
 * @example
 * const propagation = traceContextPropagation();
 * const queue = new EvaluationQueue({ connection, propagation });
 * createEvaluationWorker({ connection, runtime, persistence, prompts, propagation });
 */
export function traceContextPropagation(
  propagator: TextMapPropagator = propagation,
): TraceContextPropagation {
  return {
    capture() {
      const carrier: Record<string, string> = {};
      propagator.inject(context.active(), carrier, defaultTextMapSetter);
      return carrier;
    },
    restore(fields, run) {
      const extracted = propagator.extract(context.active(), fields, defaultTextMapGetter);
      return context.with(extracted, run);
    },
  };
}
