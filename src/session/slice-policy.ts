/**
 * How a slice behaves on `restore()`: `state` slices roll back, `log` slices
 * (the telemetry events by default) keep everything ever appended.
 */
export const SlicePolicy = Object.freeze({
  /** Rolled back by `restore()` and failed transactions. */
  State: 'state',
  /** Append-only history, kept by `restore()`. */
  Log: 'log',
} as const);

/** `'state'` or `'log'`; see {@link SlicePolicy}. */
export type SlicePolicy = (typeof SlicePolicy)[keyof typeof SlicePolicy];
