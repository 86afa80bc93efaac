import type { StepStatus } from './step-status.js';

/** Fields of a {@link StepUpdated} event. */
export interface StepUpdatedInit {
  /** The step to change. */
  readonly stepId: number;
  /** Its new title (trimmed), if it changes. */
  readonly title?: string | undefined;
  /** Its new status, if it changes. */
  readonly status?: StepStatus | undefined;
}

/** A step of the active plan was renamed, given a new status, or both. */
export class StepUpdated {
  /** The step that changed. */
  readonly stepId: number;
  /** Its new title, or `undefined` when the title is unchanged. */
  readonly title: string | undefined;
  /** Its new status, or `undefined` when the status is unchanged. */
  readonly status: StepStatus | undefined;

  constructor(init: StepUpdatedInit) {
    this.stepId = init.stepId;
    this.title = init.title;
    this.status = init.status;
  }
}
