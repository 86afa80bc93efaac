import { Reducer } from '../index.js';
import { PlanSetUp } from './plan-set-up.js';
import { PlanStatus } from './plan-status.js';
import { PlanStep } from './plan-step.js';
import { StepStatus } from './step-status.js';
import { StepUpdated } from './step-updated.js';
import { StepsAdded } from './steps-added.js';

/** Fields of a {@link Plan}. */
export interface PlanInit {
  /** What the plan should achieve; `''` by default. */
  readonly objective?: string;
  /** `active` by default. */
  readonly status?: PlanStatus;
  /** The steps, in order; none by default. */
  readonly steps?: readonly PlanStep[];
}

/**
 * The session's plan: an objective, a status and the steps. A declarative
 * state class: its `@Reducer` methods compute the next plan from the planning
 * events, and the current plan is `session.slice(Plan).latest()`.
 */
export class Plan {
  /** What the plan should achieve. */
  readonly objective: string;
  /** `active` while steps remain; `completed` once every step is done. */
  readonly status: PlanStatus;
  /** The steps, in the order they were added. */
  readonly steps: readonly PlanStep[];

  constructor(init: PlanInit = {}) {
    this.objective = init.objective ?? '';
    this.status = init.status ?? PlanStatus.ACTIVE;
    this.steps = [...(init.steps ?? [])];
  }

  /** The step with `stepId`, or `undefined`. */
  step(stepId: number): PlanStep | undefined {
    return this.steps.find((step) => step.stepId === stepId);
  }

  /** The id the next added step gets: one more than the highest id ever used in this plan. */
  get nextStepId(): number {
    return this.steps.reduce((highest, step) => Math.max(highest, step.stepId), 0) + 1;
  }

  /** Starts over: a new active plan whose steps are numbered from 1. */
  @Reducer(PlanSetUp)
  setUp(event: PlanSetUp): Plan {
    const steps = event.stepTitles.map(
      (title, index) => new PlanStep({ stepId: index + 1, title }),
    );
    return new Plan({ objective: event.objective, steps });
  }

  /** Appends pending steps with fresh ids; the plan stays active. */
  @Reducer(StepsAdded)
  addSteps(event: StepsAdded): Plan {
    const first = this.nextStepId;
    const added = event.titles.map(
      (title, index) => new PlanStep({ stepId: first + index, title }),
    );
    return new Plan({ objective: this.objective, steps: [...this.steps, ...added] });
  }

  /** Patches one step; the plan is completed exactly when it has steps and all are done. */
  @Reducer(StepUpdated)
  updateStep(event: StepUpdated): Plan {
    const steps = this.steps.map((step) =>
      step.stepId === event.stepId
        ? new PlanStep({
            stepId: step.stepId,
            title: event.title ?? step.title,
            status: event.status ?? step.status,
          })
        : step,
    );
    const allDone = steps.length > 0 && steps.every((step) => step.status === StepStatus.DONE);
    const status = allDone ? PlanStatus.COMPLETED : PlanStatus.ACTIVE;
    return new Plan({ objective: this.objective, status, steps });
  }

  /** A plan recorded as a whole (a planning tool's result) replaces the current one. */
  @Reducer(Plan)
  replace(next: Plan): Plan {
    return next;
  }

  /** The plan as the model reads it: objective, status, a blank line, then one line per step. */
  render(): string {
    const steps =
      this.steps.length === 0 ? ['<no steps>'] : this.steps.map((step) => step.render());
    return [`Objective: ${this.objective}`, `Status: ${this.status}`, '', ...steps].join('\n');
  }
}
