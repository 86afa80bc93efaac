import { Session } from 'affordance';
import {
  Plan,
  PlanSetUp,
  PlanStatus,
  PlanStep,
  StepStatus,
  StepUpdated,
  StepsAdded,
} from 'affordance/planning';

function installedSession(): Session {
  const session = new Session();
  session.install(Plan, { initial: () => new Plan() });
  return session;
}

function latest(session: Session): Plan {
  const plan = session.slice(Plan).latest();
  if (plan === undefined) throw new Error('no plan in the session');
  return plan;
}

function summary(plan: Plan): string[] {
  return plan.steps.map((step) => step.render());
}

describe(PlanStep, () => {
  describe('.render', () => {
    it('should show the id, the status in brackets and the title', () => {
      expect(new PlanStep({ stepId: 3, title: 'Draft', status: 'in_progress' }).render()).toBe(
        '3 [in_progress] Draft',
      );
    });

    it('should start pending', () => {
      expect(new PlanStep({ stepId: 1, title: 'Draft' }).status).toBe('pending');
    });
  });
});

describe(Plan, () => {
  describe('.render', () => {
    it('should show the objective, the status, a blank line and one line per step', () => {
      const plan = new Plan({
        objective: 'Ship',
        steps: [
          new PlanStep({ stepId: 1, title: 'Build', status: 'done' }),
          new PlanStep({ stepId: 2, title: 'Tag' }),
        ],
      });
      expect(plan.render()).toBe(
        'Objective: Ship\nStatus: active\n\n1 [done] Build\n2 [pending] Tag',
      );
    });

    it('should say <no steps> for an empty plan', () => {
      expect(new Plan({ objective: 'Ship' }).render()).toBe(
        'Objective: Ship\nStatus: active\n\n<no steps>',
      );
    });
  });

  describe('PlanSetUp reducer', () => {
    it('should number the steps from 1, all pending, in an active plan', () => {
      const session = installedSession();
      session.dispatch(new PlanSetUp('Ship', ['Build', 'Tag']));
      const plan = latest(session);
      expect(plan.objective).toBe('Ship');
      expect(plan.status).toBe(PlanStatus.ACTIVE);
      expect(summary(plan)).toEqual(['1 [pending] Build', '2 [pending] Tag']);
    });

    it('should replace any previous plan, even a completed one', () => {
      const session = installedSession();
      session.slice(Plan).seed(
        new Plan({
          objective: 'Old',
          status: 'completed',
          steps: [new PlanStep({ stepId: 7, title: 'Done long ago', status: 'done' })],
        }),
      );
      session.dispatch(new PlanSetUp('New', ['First']));
      expect(session.slice(Plan).all()).toHaveLength(1);
      expect(latest(session).render()).toBe('Objective: New\nStatus: active\n\n1 [pending] First');
    });
  });

  describe('StepsAdded reducer', () => {
    it('should give new steps the ids after the highest one ever used, never reusing one', () => {
      const session = installedSession();
      session.slice(Plan).seed(
        new Plan({
          objective: 'Ship',
          steps: [
            new PlanStep({ stepId: 1, title: 'Build' }),
            new PlanStep({ stepId: 5, title: 'Tag' }),
          ],
        }),
      );
      session.dispatch(new StepsAdded(['Announce', 'Celebrate']));
      expect(summary(latest(session))).toEqual([
        '1 [pending] Build',
        '5 [pending] Tag',
        '6 [pending] Announce',
        '7 [pending] Celebrate',
      ]);
    });

    it('should start at 1 in a plan without steps', () => {
      const session = installedSession();
      session.dispatch(new PlanSetUp('Ship'));
      session.dispatch(new StepsAdded(['Build']));
      expect(summary(latest(session))).toEqual(['1 [pending] Build']);
    });
  });

  describe('StepUpdated reducer', () => {
    function planOfThree(): Session {
      const session = installedSession();
      session.dispatch(new PlanSetUp('Ship', ['Build', 'Tag', 'Announce']));
      return session;
    }

    it('should change only the given fields of the given step', () => {
      const session = planOfThree();
      session.dispatch(new StepUpdated({ stepId: 2, title: 'Tag v1' }));
      session.dispatch(new StepUpdated({ stepId: 3, status: StepStatus.IN_PROGRESS }));
      expect(summary(latest(session))).toEqual([
        '1 [pending] Build',
        '2 [pending] Tag v1',
        '3 [in_progress] Announce',
      ]);
    });

    it('should complete the plan exactly when every step is done', () => {
      const session = planOfThree();
      for (const stepId of [1, 2]) session.dispatch(new StepUpdated({ stepId, status: 'done' }));
      expect(latest(session).status).toBe('active');
      session.dispatch(new StepUpdated({ stepId: 3, status: 'done' }));
      expect(latest(session).status).toBe('completed');
    });

    it('should keep a plan without steps active', () => {
      const session = installedSession();
      session.dispatch(new PlanSetUp('Ship'));
      session.dispatch(new StepUpdated({ stepId: 1, status: 'done' }));
      expect(latest(session).status).toBe('active');
      expect(latest(session).steps).toEqual([]);
    });
  });

  describe('Plan reducer', () => {
    it('should replace the current plan with a plan recorded as a whole, keeping one value', () => {
      const session = installedSession();
      session.dispatch(new PlanSetUp('Ship', ['Build']));
      const next = new Plan({ objective: 'Other' });
      session.dispatch(next);
      expect(session.slice(Plan).all()).toEqual([next]);
    });
  });

  describe('.nextStepId', () => {
    it('should be one more than the highest id', () => {
      const plan = new Plan({
        steps: [new PlanStep({ stepId: 4, title: 'a' }), new PlanStep({ stepId: 2, title: 'b' })],
      });
      expect(plan.nextStepId).toBe(5);
      expect(new Plan().nextStepId).toBe(1);
    });
  });
});
