import { inject } from 'inversify';

import {
  Section,
  Session,
  type SliceAccessor,
  Tool,
  type ToolContext,
  ToolExample,
  ToolResult,
  ToolValidationError,
} from '../index.js';
import { AddStepParams } from './add-step-params.js';
import { Plan } from './plan.js';
import { PlanSetUp } from './plan-set-up.js';
import { planSlice } from './plan-slice.js';
import { PlanStatus } from './plan-status.js';
import { PlanStep } from './plan-step.js';
import { planText } from './plan-text.js';
import { PlanningToolsParams } from './planning-tools-params.js';
import { SetupPlanParams } from './setup-plan-params.js';
import { StepStatus } from './step-status.js';
import { StepUpdated } from './step-updated.js';
import { StepsAdded } from './steps-added.js';
import { UpdateStepParams } from './update-step-params.js';

const template = [
  'Use the planning tools for work that takes several steps or has to keep track of state.',
  '',
  '${strategyGuidance}',
  '',
  '- Start with planning_setup_plan: give the objective and, if you already know them, the first steps.',
  '- Append steps as you discover them with planning_add_step.',
  "- Change a step's title or status (pending, in_progress, done) with planning_update_step.",
  '- Check the current plan with planning_read_plan.',
  '- Steps are numbered 1, 2, 3... in the order they are added, and a step keeps its number.',
  '- The plan completes by itself once every step is done; a completed plan accepts no more changes, so set up a new plan for new work.',
  '',
  'Skip planning for trivial tasks that take a single step.',
].join('\n');

/**
 * Planning tools for agents that work through several steps: a plan kept in
 * the session (`session.slice(Plan).latest()`), changed only through the four
 * tools, each returning the latest plan. The strategy comes from the section's
 * {@link PlanningToolsParams}. Add the class to a prompt's sections.
 *
 * @example
 * const prompt = new Prompt({ ns: 'agents', key: 'worker', sections: [PlanningToolsSection] });
 * await runtime.evaluate(prompt, { session, params: [new PlanningToolsParams({ strategy: PlanningStrategy.PLAN_ACT_REFLECT })] });
 * session.slice(Plan).latest();
 */
@Section({
  key: 'planning.tools',
  title: 'Planning Tools',
  params: PlanningToolsParams,
  template,
  acceptsOverrides: false,
})
export class PlanningToolsSection {
  private readonly plans: SliceAccessor<Plan>;

  constructor(@inject(Session) private readonly session: Session) {
    this.plans = planSlice(session);
  }

  @Tool({
    name: 'planning_setup_plan',
    description: 'Create or replace the session plan with an objective and optional initial steps.',
    result: Plan,
    acceptsOverrides: false,
    examples: [
      new ToolExample({
        description: 'Start a plan with two steps.',
        input: Object.assign(new SetupPlanParams(), {
          objective: 'Publish the release notes',
          initialSteps: ['Collect merged changes', 'Draft the notes'],
        }),
        output: examplePlan([StepStatus.PENDING, StepStatus.PENDING]),
      }),
    ],
  })
  setupPlan(params: SetupPlanParams, _context: ToolContext): ToolResult<Plan> {
    const objective = planText(params.objective, 'Objective');
    const titles = (params.initialSteps ?? []).map((title, index) =>
      planText(title, 'Title', `initialSteps[${index}]`),
    );
    const plan = this.apply(new PlanSetUp(objective, titles));
    return ToolResult.ok(plan, `Plan initialised with ${countSteps(titles.length)}.`);
  }

  @Tool({
    name: 'planning_add_step',
    description: 'Append one or more steps to the active plan.',
    result: Plan,
    acceptsOverrides: false,
    examples: [
      new ToolExample({
        description: 'Add a review step to the plan.',
        input: Object.assign(new AddStepParams(), { steps: ['Ask for review'] }),
        output: examplePlan([StepStatus.PENDING, StepStatus.PENDING, StepStatus.PENDING]),
      }),
    ],
  })
  addStep(params: AddStepParams, _context: ToolContext): ToolResult<Plan> {
    const refusal = this.refuseUnlessActive();
    if (refusal !== undefined) return refusal;
    const titles = params.steps.map((title, index) => planText(title, 'Title', `steps[${index}]`));
    if (titles.length === 0) throw new ToolValidationError('Provide at least one step to add.');
    const plan = this.apply(new StepsAdded(titles));
    return ToolResult.ok(plan, `Added ${countSteps(titles.length)}.`);
  }

  @Tool({
    name: 'planning_update_step',
    description: "Update a step's title or status by its ID.",
    result: Plan,
    acceptsOverrides: false,
    examples: [
      new ToolExample({
        description: 'Mark the first step as done.',
        input: Object.assign(new UpdateStepParams(), { stepId: 1, status: StepStatus.DONE }),
        output: examplePlan([StepStatus.DONE, StepStatus.PENDING]),
      }),
    ],
  })
  updateStep(params: UpdateStepParams, _context: ToolContext): ToolResult<Plan> {
    const refusal = this.refuseUnlessActive();
    if (refusal !== undefined) return refusal;
    const newTitle = params.title ?? undefined;
    const title = newTitle === undefined ? undefined : planText(newTitle, 'Title');
    const status = params.status ?? undefined;
    if (title === undefined && status === undefined) {
      throw new ToolValidationError('Provide a new title or status to update a step.');
    }
    if (this.plans.latest()?.step(params.stepId) === undefined) {
      return ToolResult.error(
        `Step ${params.stepId} does not exist. Call planning_read_plan to see the step ids.`,
      );
    }
    const plan = this.apply(new StepUpdated({ stepId: params.stepId, title, status }));
    return ToolResult.ok(plan, `Step ${params.stepId} updated.`);
  }

  @Tool({
    name: 'planning_read_plan',
    description: 'Return the latest plan snapshot.',
    result: Plan,
    acceptsOverrides: false,
    readOnly: true,
  })
  readPlan(_params: undefined, _context: ToolContext): ToolResult<Plan> {
    const plan = this.plans.latest();
    if (plan === undefined) return ToolResult.error(noPlan);
    const message =
      plan.steps.length === 0
        ? 'Retrieved the current plan (no steps recorded).'
        : `Retrieved the current plan with ${countSteps(plan.steps.length)}.`;
    return ToolResult.ok(plan, message);
  }

  /** Dispatches a planning event and returns the plan it produced. */
  private apply(event: PlanSetUp | StepsAdded | StepUpdated): Plan {
    this.session.dispatch(event).raiseIfErrors();
    return this.plans.latest() as Plan;
  }

  /** A failed result when there is no plan or it is completed; `undefined` when it may change. */
  private refuseUnlessActive(): ToolResult<never> | undefined {
    const plan = this.plans.latest();
    if (plan === undefined) return ToolResult.error(noPlan);
    if (plan.status !== PlanStatus.ACTIVE) {
      return ToolResult.error(
        `Plan must be active. Current status: ${plan.status}. Call planning_setup_plan to start a new plan.`,
      );
    }
    return undefined;
  }
}

const noPlan = 'No plan is currently initialised. Call planning_setup_plan first.';

function countSteps(count: number): string {
  return `${count} ${count === 1 ? 'step' : 'steps'}`;
}

function examplePlan(statuses: readonly StepStatus[]): Plan {
  const titles = ['Collect merged changes', 'Draft the notes', 'Ask for review'];
  const steps = statuses.map(
    (status, index) => new PlanStep({ stepId: index + 1, title: titles[index] ?? '', status }),
  );
  return new Plan({ objective: 'Publish the release notes', steps });
}
