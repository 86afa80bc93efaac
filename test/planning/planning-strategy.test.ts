import { ConfigurationError, Prompt } from 'affordance';
import {
  PlanningStrategy,
  PlanningToolsParams,
  PlanningToolsSection,
  planningGuidance,
} from 'affordance/planning';

import { catchError } from '../support/catch-error.js';

const opening =
  '## 1. Planning Tools (planning.tools)\n\n' +
  'Use the planning tools for work that takes several steps or has to keep track of state.';

const rules = [
  '- Start with planning_setup_plan: give the objective and, if you already know them, the first steps.',
  '- Append steps as you discover them with planning_add_step.',
  "- Change a step's title or status (pending, in_progress, done) with planning_update_step.",
  '- Check the current plan with planning_read_plan.',
  '- Steps are numbered 1, 2, 3... in the order they are added, and a step keeps its number.',
  '- The plan completes by itself once every step is done; a completed plan accepts no more changes, so set up a new plan for new work.',
  '',
  'Skip planning for trivial tasks that take a single step.',
].join('\n');

const expectedGuidance: Record<PlanningStrategy, string> = {
  react:
    'Work in short cycles: reason about the next step, make one tool call, look at what it returned, ' +
    'and only then decide what to do next.',
  plan_act_reflect:
    'Work in a plan, act, reflect rhythm: write out the whole plan before you call any other tool, ' +
    'then carry out the steps in order. After each tool call or finished step, look back at the ' +
    'result and update the status of that step.',
  goal_decompose_route_synthesise:
    'First restate the goal in your own words. Then break it into concrete sub-problems and record ' +
    'them as steps before choosing which tool handles each one. When every tool has run, combine ' +
    'the results into one coherent answer.',
};

const prompt = new Prompt({ ns: 'tests', key: 'planning', sections: [PlanningToolsSection] });

/** The section text before the tool examples block. */
function sectionText(params?: PlanningToolsParams): string {
  const text = prompt.render(params === undefined ? {} : { params: [params] }).text;
  return text.slice(0, text.indexOf('\n\nTools:'));
}

describe('PlanningStrategy', () => {
  it('should have the values react, plan_act_reflect and goal_decompose_route_synthesise', () => {
    expect(PlanningStrategy).toEqual({
      REACT: 'react',
      PLAN_ACT_REFLECT: 'plan_act_reflect',
      GOAL_DECOMPOSE_ROUTE_SYNTHESISE: 'goal_decompose_route_synthesise',
    });
  });

  describe.each(Object.values(PlanningStrategy))('%s', (strategy) => {
    it('should render the header, its guidance, the rules and the closing line', () => {
      expect(sectionText(new PlanningToolsParams({ strategy }))).toBe(
        `${opening}\n\n${expectedGuidance[strategy]}\n\n${rules}`,
      );
    });
  });

  it('should render REACT when no params are given', () => {
    expect(sectionText()).toBe(`${opening}\n\n${expectedGuidance.react}\n\n${rules}`);
  });
});

describe(PlanningToolsParams, () => {
  it('should default to REACT', () => {
    expect(new PlanningToolsParams().strategy).toBe(PlanningStrategy.REACT);
  });

  it('should be frozen, so the strategy and its guidance always agree', () => {
    const params = new PlanningToolsParams({ strategy: PlanningStrategy.PLAN_ACT_REFLECT });
    expect(Object.isFrozen(params)).toBe(true);
    expect(params.strategyGuidance).toBe(expectedGuidance.plan_act_reflect);
  });

  it('should reject an unknown strategy, listing the valid ones', () => {
    const error = catchError(
      ConfigurationError,
      () => new PlanningToolsParams({ strategy: 'waterfall' as PlanningStrategy }),
    );
    expect(error.message).toContain("'waterfall' is not a planning strategy");
    expect(error.message).toContain('react, plan_act_reflect, goal_decompose_route_synthesise');
  });
});

describe(planningGuidance, () => {
  it('should give each strategy a different paragraph', () => {
    const texts = Object.values(PlanningStrategy).map(planningGuidance);
    expect(new Set(texts).size).toBe(3);
  });
});
