import { describePrompt, Prompt, Session, ToolInvoked, type ToolCallOutcome } from 'affordance';
import { toJsonSchema } from 'affordance/provider';
import type { ScriptedToolCall } from 'affordance/testing';
import {
  AddStepParams,
  Plan,
  PlanningToolsSection,
  PlanStep,
  SetupPlanParams,
  UpdateStepParams,
} from 'affordance/planning';

import { runToolCalls, type ToolCallsRun } from '../support/run-tool-calls.js';

const prompt = new Prompt({ ns: 'tests', key: 'planner', sections: [PlanningToolsSection] });

const setup = (args: object): ScriptedToolCall => ({
  name: 'planning_setup_plan',
  arguments: args,
});
const add = (...steps: unknown[]): ScriptedToolCall => ({
  name: 'planning_add_step',
  arguments: { steps },
});
const update = (args: object): ScriptedToolCall => ({
  name: 'planning_update_step',
  arguments: args,
});
const read: ScriptedToolCall = { name: 'planning_read_plan' };

/** Runs the calls one per model turn. */
function run(calls: readonly ScriptedToolCall[], session?: Session): Promise<ToolCallsRun> {
  return runToolCalls(
    prompt,
    calls.map((call) => [call]),
    session === undefined ? {} : { session },
  );
}

function last(result: ToolCallsRun): ToolCallOutcome {
  const outcome = result.outcomes.at(-1);
  if (outcome === undefined) throw new Error('no tool call ran');
  return outcome;
}

function currentPlan(result: ToolCallsRun): Plan | undefined {
  return result.session.slice(Plan).latest();
}

function lines(plan: Plan | undefined): string[] {
  return plan?.steps.map((step) => step.render()) ?? [];
}

const threeSteps = setup({ objective: 'Ship', initialSteps: ['Build', 'Tag', 'Announce'] });

describe(PlanningToolsSection, () => {
  describe('the prompt', () => {
    it('should contribute the four tools in order, only planning_read_plan read-only', () => {
      expect(prompt.allTools.map((tool) => [tool.name, tool.readOnly])).toEqual([
        ['planning_setup_plan', false],
        ['planning_add_step', false],
        ['planning_update_step', false],
        ['planning_read_plan', true],
      ]);
    });

    it('should accept no overrides, neither for the section nor for its tools', () => {
      expect(prompt.allTools.every((tool) => !tool.acceptsOverrides)).toBe(true);
      expect(describePrompt(prompt)).toMatchObject({ sections: [], tools: [] });
    });

    it('should give every tool a params schema OpenAI strict mode accepts, with nothing left unexpressed', () => {
      for (const Params of [SetupPlanParams, AddStepParams, UpdateStepParams]) {
        const schema = toJsonSchema(Params, 'openai-strict');
        expect({ name: Params.name, ...schema }).toMatchObject({
          name: Params.name,
          strictCompatible: true,
          unexpressed: [],
          strictBlockers: [],
        });
      }
      // planning_read_plan takes no params: its schema is the empty closed object.
      expect(prompt.allTools[3]?.paramsType).toBeUndefined();
    });

    it('should show the model optional fields as nullable and the step id as an integer from 1', () => {
      expect(toJsonSchema(UpdateStepParams, 'openai-strict').schema).toEqual({
        type: 'object',
        properties: {
          stepId: {
            description: 'Id of the step to change, as shown by the plan (1, 2, 3...).',
            type: 'integer',
            minimum: 1,
          },
          title: {
            description: 'New title for the step; leave out to keep the current one.',
            type: ['string', 'null'],
          },
          status: {
            description:
              'New status: pending, in_progress or done; leave out to keep the current one.',
            type: ['string', 'null'],
            enum: ['pending', 'in_progress', 'done', null],
          },
        },
        required: ['stepId', 'title', 'status'],
        additionalProperties: false,
      });
    });
  });

  describe('planning_setup_plan', () => {
    it('should trim the objective and titles, number the steps from 1 and return the plan', async () => {
      const result = await run([
        setup({ objective: '  Ship v1 \n', initialSteps: [' Build ', 'Tag'] }),
      ]);
      const outcome = last(result);
      expect(outcome.result.success).toBe(true);
      expect(outcome.message).toBe(
        'Plan initialised with 2 steps.\n\nObjective: Ship v1\nStatus: active\n\n1 [pending] Build\n2 [pending] Tag',
      );
      expect(outcome.result.value).toEqual(currentPlan(result));
    });

    it.each([
      [[], 'Plan initialised with 0 steps.'],
      [['One'], 'Plan initialised with 1 step.'],
    ])('should count %j as in "%s"', async (initialSteps, message) => {
      const result = await run([setup({ objective: 'Ship', initialSteps })]);
      expect(last(result).result.message).toBe(message);
    });

    it('should accept a plan without initialSteps', async () => {
      const result = await run([setup({ objective: 'Ship' })]);
      expect(last(result).message).toBe(
        'Plan initialised with 0 steps.\n\nObjective: Ship\nStatus: active\n\n<no steps>',
      );
    });

    it('should replace the previous plan, even a completed one, restarting ids at 1', async () => {
      const result = await run([
        setup({ objective: 'Old', initialSteps: ['Only'] }),
        update({ stepId: 1, status: 'done' }),
        setup({ objective: 'New', initialSteps: ['First'] }),
      ]);
      expect(result.outcomes[1]?.result.value).toMatchObject({ status: 'completed' });
      expect(currentPlan(result)?.render()).toBe(
        'Objective: New\nStatus: active\n\n1 [pending] First',
      );
    });

    it.each([
      [{ objective: '   ' }, 'Tool validation failed: Objective must not be empty.'],
      [
        { objective: 'x'.repeat(501) },
        'Tool validation failed: Objective must be <= 500 characters.',
      ],
      [
        { objective: 'Ship', initialSteps: ['Build', ' '] },
        'Tool validation failed: initialSteps[1]: Title must not be empty.',
      ],
      [
        { objective: 'Ship', initialSteps: ['y'.repeat(501)] },
        'Tool validation failed: initialSteps[0]: Title must be <= 500 characters.',
      ],
    ])('should reject %j and keep the previous plan', async (args, message) => {
      const result = await run([setup({ objective: 'Keep', initialSteps: ['A'] }), setup(args)]);
      expect(last(result).result.success).toBe(false);
      expect(last(result).message).toBe(message);
      expect(currentPlan(result)?.objective).toBe('Keep');
    });

    it('should measure length after trimming, in characters rather than UTF-16 units', async () => {
      const result = await run([setup({ objective: `  ${'é'.repeat(250)}${'😀'.repeat(250)}  ` })]);
      expect(last(result).result.success).toBe(true);
      expect(Array.from(currentPlan(result)?.objective ?? '')).toHaveLength(500);
    });

    it('should reject arguments the schema does not allow before the handler runs', async () => {
      const result = await run([setup({ objective: 'Ship', initialSteps: 'Build', extra: 1 })]);
      expect(last(result).message).toMatch(/^Tool validation failed: .*initialSteps.*extra/);
      expect(currentPlan(result)).toBeUndefined();
    });
  });

  describe('planning_add_step', () => {
    it('should refuse when no plan exists', async () => {
      const result = await run([add('Build')]);
      expect(last(result).message).toBe(
        'No plan is currently initialised. Call planning_setup_plan first.',
      );
      expect(last(result).result.success).toBe(false);
    });

    it('should append pending steps with ids after the highest one and say how many', async () => {
      const result = await run([threeSteps, add(' Review ', 'Release')]);
      expect(last(result).result.message).toBe('Added 2 steps.');
      expect(lines(last(result).result.value as Plan)).toEqual([
        '1 [pending] Build',
        '2 [pending] Tag',
        '3 [pending] Announce',
        '4 [pending] Review',
        '5 [pending] Release',
      ]);
      expect(last(result).result.value).toEqual(currentPlan(result));
    });

    it('should say "1 step" for one', async () => {
      const result = await run([threeSteps, add('Review')]);
      expect(last(result).result.message).toBe('Added 1 step.');
    });

    it('should refuse an empty list', async () => {
      const result = await run([threeSteps, add()]);
      expect(last(result).message).toBe(
        'Tool validation failed: Provide at least one step to add.',
      );
    });

    it('should add nothing when one title is invalid', async () => {
      const result = await run([threeSteps, add('Review', '')]);
      expect(last(result).message).toBe(
        'Tool validation failed: steps[1]: Title must not be empty.',
      );
      expect(lines(currentPlan(result))).toHaveLength(3);
    });

    it('should refuse to add to a completed plan', async () => {
      const result = await run([
        setup({ objective: 'Ship', initialSteps: ['Build'] }),
        update({ stepId: 1, status: 'done' }),
        add('Celebrate'),
      ]);
      expect(last(result).message).toBe(
        'Plan must be active. Current status: completed. Call planning_setup_plan to start a new plan.',
      );
      expect(lines(currentPlan(result))).toEqual(['1 [done] Build']);
    });
  });

  describe('planning_update_step', () => {
    it('should refuse when no plan exists', async () => {
      const result = await run([update({ stepId: 1, status: 'done' })]);
      expect(last(result).message).toBe(
        'No plan is currently initialised. Call planning_setup_plan first.',
      );
    });

    it('should rename a step, trimming the title', async () => {
      const result = await run([threeSteps, update({ stepId: 2, title: '  Tag v1.0 ' })]);
      expect(last(result).result.message).toBe('Step 2 updated.');
      expect(lines(currentPlan(result))).toEqual([
        '1 [pending] Build',
        '2 [pending] Tag v1.0',
        '3 [pending] Announce',
      ]);
    });

    it('should change title and status together', async () => {
      const result = await run([
        threeSteps,
        update({ stepId: 3, title: 'Announce it', status: 'in_progress' }),
      ]);
      expect(lines(currentPlan(result))[2]).toBe('3 [in_progress] Announce it');
    });

    it('should complete the plan when the last step is done, and not before', async () => {
      const result = await run([
        threeSteps,
        update({ stepId: 1, status: 'done' }),
        update({ stepId: 2, status: 'done' }),
        update({ stepId: 3, status: 'done' }),
      ]);
      const statuses = result.outcomes.map((outcome) => (outcome.result.value as Plan).status);
      expect(statuses).toEqual(['active', 'active', 'active', 'completed']);
    });

    it('should refuse an unknown step id and change nothing', async () => {
      const result = await run([threeSteps, update({ stepId: 4, status: 'done' })]);
      expect(last(result).message).toBe(
        'Step 4 does not exist. Call planning_read_plan to see the step ids.',
      );
      expect(last(result).result.success).toBe(false);
    });

    it.each([
      [{ stepId: 1 }, 'Provide a new title or status to update a step.'],
      [{ stepId: 1, title: null, status: null }, 'Provide a new title or status to update a step.'],
      [{ stepId: 1, title: ' ' }, 'Title must not be empty.'],
      [{ stepId: 1, title: 't'.repeat(501) }, 'Title must be <= 500 characters.'],
    ])('should reject %j', async (args, problem) => {
      const result = await run([threeSteps, update(args)]);
      expect(last(result).message).toBe(`Tool validation failed: ${problem}`);
      expect(lines(currentPlan(result))[0]).toBe('1 [pending] Build');
    });

    it.each([
      [{ stepId: '1', status: 'done' }, 'stepId'],
      [{ stepId: 0, status: 'done' }, 'stepId'],
      [{ stepId: 1.5, status: 'done' }, 'stepId'],
      [{ stepId: 1, status: 'blocked' }, 'status'],
    ])('should reject %j through the schema, naming %s', async (args, field) => {
      const result = await run([threeSteps, update(args)]);
      expect(last(result).message).toMatch(new RegExp(`^Tool validation failed: ${field}: `));
    });

    it('should refuse to update a completed plan', async () => {
      const result = await run([
        setup({ objective: 'Ship', initialSteps: ['Build'] }),
        update({ stepId: 1, status: 'done' }),
        update({ stepId: 1, status: 'pending' }),
      ]);
      expect(last(result).message).toBe(
        'Plan must be active. Current status: completed. Call planning_setup_plan to start a new plan.',
      );
      expect(currentPlan(result)?.status).toBe('completed');
    });
  });

  describe('planning_read_plan', () => {
    it('should refuse when no plan exists', async () => {
      const result = await run([read]);
      expect(last(result).message).toBe(
        'No plan is currently initialised. Call planning_setup_plan first.',
      );
    });

    it('should say when the plan has no steps', async () => {
      const result = await run([setup({ objective: 'Ship' }), read]);
      expect(last(result).message).toBe(
        'Retrieved the current plan (no steps recorded).\n\nObjective: Ship\nStatus: active\n\n<no steps>',
      );
    });

    it('should count the steps and show the latest plan', async () => {
      const one = await run([setup({ objective: 'Ship', initialSteps: ['Build'] }), read]);
      expect(last(one).result.message).toBe('Retrieved the current plan with 1 step.');
      const three = await run([threeSteps, update({ stepId: 2, status: 'done' }), read]);
      expect(last(three).result.message).toBe('Retrieved the current plan with 3 steps.');
      expect(last(three).message).toContain('2 [done] Tag');
    });

    it('should reject arguments, since it takes none', async () => {
      const result = await run([threeSteps, { name: 'planning_read_plan', arguments: { all: 1 } }]);
      expect(last(result).message).toBe(
        'Tool validation failed: Tool does not accept any arguments.',
      );
    });
  });

  describe('the session', () => {
    it('should hold exactly one plan, the latest, whatever the tools did', async () => {
      const result = await run([
        threeSteps,
        add('Review'),
        update({ stepId: 4, status: 'in_progress' }),
        update({ stepId: 9, status: 'done' }),
        read,
      ]);
      expect(result.session.slice(Plan).all()).toHaveLength(1);
      const successes = result.outcomes.filter((outcome) => outcome.result.success);
      expect(successes.at(-1)?.result.value).toEqual(currentPlan(result));
      expect(currentPlan(result)?.steps.at(-1)).toEqual(
        new PlanStep({ stepId: 4, title: 'Review', status: 'in_progress' }),
      );
    });

    it('should keep the plan across evaluations of the same session', async () => {
      const session = new Session();
      await run([threeSteps], session);
      const second = await run([update({ stepId: 1, status: 'done' })], session);
      expect(lines(currentPlan(second))[0]).toBe('1 [done] Build');
    });

    it('should work in a session where the application installed Plan itself, and in its clones', async () => {
      const session = new Session();
      session.install(Plan, { initial: () => new Plan() });
      await run([threeSteps], session);
      const clone = session.clone();
      const result = await run([add('Review')], clone);
      expect(lines(currentPlan(result))).toHaveLength(4);
      expect(lines(session.slice(Plan).latest())).toHaveLength(3);
    });

    it('should record every call as a ToolInvoked event', async () => {
      const result = await run([threeSteps, add('')]);
      expect(
        result.session
          .slice(ToolInvoked)
          .all()
          .map((event) => [event.name, event.outcome]),
      ).toEqual([
        ['planning_setup_plan', 'success'],
        ['planning_add_step', 'failure'],
      ]);
    });
  });
});

describe('a scripted planning conversation', () => {
  it('should set up, add, rename, complete every step, then be refused when adding to the completed plan', async () => {
    const session = new Session();
    const result = await runToolCalls(
      prompt,
      [
        [setup({ objective: 'Publish the changelog', initialSteps: ['Collect changes', 'Write'] })],
        [add('Proofread')],
        [update({ stepId: 2, title: 'Write the entries' })],
        [
          update({ stepId: 1, status: 'done' }),
          update({ stepId: 2, status: 'done' }),
          update({ stepId: 3, status: 'done' }),
        ],
        [add('Celebrate')],
      ],
      { session },
    );
    expect(result.outcomes.map((outcome) => outcome.result.message)).toEqual([
      'Plan initialised with 2 steps.',
      'Added 1 step.',
      'Step 2 updated.',
      'Step 1 updated.',
      'Step 2 updated.',
      'Step 3 updated.',
      'Plan must be active. Current status: completed. Call planning_setup_plan to start a new plan.',
    ]);
    expect(session.slice(Plan).all()).toHaveLength(1);
    expect(session.slice(Plan).latest()?.render()).toBe(
      [
        'Objective: Publish the changelog',
        'Status: completed',
        '',
        '1 [done] Collect changes',
        '2 [done] Write the entries',
        '3 [done] Proofread',
      ].join('\n'),
    );
    expect(result.response.text).toBe('done');
  });
});
