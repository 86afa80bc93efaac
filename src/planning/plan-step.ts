import { StepStatus } from './step-status.js';

/** Fields of a {@link PlanStep}. */
export interface PlanStepInit {
  /** The step's id, a positive integer. */
  readonly stepId: number;
  /** What the step is about. */
  readonly title: string;
  /** `pending` by default. */
  readonly status?: StepStatus;
}

/** One step of a {@link Plan}: an integer id that is never reused, a title and a status. */
export class PlanStep {
  /** The step's id: 1, 2, 3... in the order steps were added. */
  readonly stepId: number;
  /** What the step is about. */
  readonly title: string;
  /** Where the step stands. */
  readonly status: StepStatus;

  constructor(init: PlanStepInit) {
    this.stepId = init.stepId;
    this.title = init.title;
    this.status = init.status ?? StepStatus.PENDING;
  }

  /** The step as the model reads it: `<id> [<status>] <title>`. */
  render(): string {
    return `${this.stepId} [${this.status}] ${this.title}`;
  }
}
