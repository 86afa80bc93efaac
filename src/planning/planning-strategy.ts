import { ConfigurationError } from '../index.js';

/**
 * How the planning section tells the model to work: `REACT` (the default)
 * reasons, acts and observes one step at a time; `PLAN_ACT_REFLECT` plans
 * everything first; `GOAL_DECOMPOSE_ROUTE_SYNTHESISE` splits the goal into
 * sub-problems and combines their results.
 */
export const PlanningStrategy = Object.freeze({
  /** Reason about the next step, call a tool, observe the result, repeat. */
  REACT: 'react',
  /** Outline the whole plan, carry it out, reflect after each step. */
  PLAN_ACT_REFLECT: 'plan_act_reflect',
  /** Restate the goal, split it into sub-problems, route tools to each, synthesise. */
  GOAL_DECOMPOSE_ROUTE_SYNTHESISE: 'goal_decompose_route_synthesise',
} as const);

/** One of the {@link PlanningStrategy} values. */
export type PlanningStrategy = (typeof PlanningStrategy)[keyof typeof PlanningStrategy];

const guidance: Readonly<Record<PlanningStrategy, string>> = Object.freeze({
  react:
    'Work in short cycles: reason about the next step, make one tool call, look at what it ' +
    'returned, and only then decide what to do next.',
  plan_act_reflect:
    'Work in a plan, act, reflect rhythm: write out the whole plan before you call any other ' +
    'tool, then carry out the steps in order. After each tool call or finished step, look back ' +
    'at the result and update the status of that step.',
  goal_decompose_route_synthesise:
    'First restate the goal in your own words. Then break it into concrete sub-problems and ' +
    'record them as steps before choosing which tool handles each one. When every tool has ' +
    'run, combine the results into one coherent answer.',
});

/**
 * The paragraph the planning section shows for `strategy`.
 * @throws ConfigurationError for a value that is not a {@link PlanningStrategy}.
 */
export function planningGuidance(strategy: PlanningStrategy): string {
  const text = (guidance as Partial<Record<string, string>>)[strategy];
  if (text === undefined) {
    throw new ConfigurationError({
      subject: 'PlanningToolsParams.strategy',
      problem: `'${strategy}' is not a planning strategy.`,
      fix: `Use one of PlanningStrategy.REACT, PLAN_ACT_REFLECT or GOAL_DECOMPOSE_ROUTE_SYNTHESISE (${Object.values(PlanningStrategy).join(', ')}).`,
    });
  }
  return text;
}
