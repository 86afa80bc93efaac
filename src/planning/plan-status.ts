/** Whether a plan still accepts changes (`active`) or every step is done (`completed`). */
export const PlanStatus = Object.freeze({
  /** Steps can be added and updated. */
  ACTIVE: 'active',
  /** Every step is done; the plan accepts no more changes. */
  COMPLETED: 'completed',
} as const);

/** `'active'` or `'completed'`; see {@link PlanStatus}. */
export type PlanStatus = (typeof PlanStatus)[keyof typeof PlanStatus];
