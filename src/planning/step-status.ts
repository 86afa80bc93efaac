/** Where a plan step stands: not started, being worked on, or finished. */
export const StepStatus = Object.freeze({
  /** Not started yet. */
  PENDING: 'pending',
  /** Being worked on. */
  IN_PROGRESS: 'in_progress',
  /** Finished. */
  DONE: 'done',
} as const);

/** `'pending'`, `'in_progress'` or `'done'`; see {@link StepStatus}. */
export type StepStatus = (typeof StepStatus)[keyof typeof StepStatus];
