/**
 * Carries a context (a trace, most often) from the process that adds a job to
 * the worker that runs it: `capture` runs where the job is added and its
 * fields are stored with the job; `restore` runs around the job in the
 * worker with those fields. `traceContextPropagation()` from
 * `affordance/otel` is one: the worker's evaluation span then continues the
 * trace of the request that enqueued it.
 */
export interface JobContextPropagation {
  /** The fields to store with a job added now (e.g. W3C `traceparent`); none: `undefined` or `{}`. */
  capture(): Readonly<Record<string, string>> | undefined;
  /** Runs the job inside the context its fields describe. */
  restore<T>(fields: Readonly<Record<string, string>>, run: () => Promise<T>): Promise<T>;
}
