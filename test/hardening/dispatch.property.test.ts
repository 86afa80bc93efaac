import fc from 'fast-check';

import { createTestRuntime } from 'affordance/testing';

import {
  anyCall,
  argumentsCall,
  decodedCall,
  evaluationPlan,
  resultCall,
  throwingCall,
} from './dispatch-arbitraries.js';
import {
  Hostile,
  hostileDecodedArguments,
  hostileResults,
  hostileThrows,
} from './hostile-values.js';
import {
  type CallPlan,
  type EvaluationPlan,
  dispatchRuntimeOptions,
  guardedPrototypes,
  runPlannedEvaluation,
} from './run-planned-evaluation.js';

const { runtime } = createTestRuntime({ runtime: dispatchRuntimeOptions });
const prototypes = guardedPrototypes();

let callsRun = 0;

/** Runs `plan` and fails, listing every broken promise, unless all of them held. */
async function expectPromisesKept(plan: EvaluationPlan): Promise<void> {
  const report = await runPlannedEvaluation(runtime, plan, prototypes);
  callsRun += report.calls;
  expect(report.violations).toEqual([]);
}

describe('Tool dispatch under hostile input (properties over the whole evaluation loop)', () => {
  describe('whatever names and argument texts the model sends', () => {
    it('gives every call exactly one tool message and one ToolInvoked, in call order, resolves the evaluation and changes no prototype, over at least 20,000 calls', async () => {
      callsRun = 0;
      await fc.assert(
        fc.asyncProperty(
          evaluationPlan(argumentsCall({ huge: true }), {
            minCalls: 1,
            maxCalls: 200,
            maxTurns: 3,
          }),
          expectPromisesKept,
        ),
        { numRuns: 150 },
      );
      expect(callsRun).toBeGreaterThanOrEqual(20_000);
    });
  });

  describe('whatever a handler returns', () => {
    it('gives every call exactly one tool message and one ToolInvoked, in call order, resolves the evaluation and changes no prototype', async () => {
      await fc.assert(
        fc.asyncProperty(
          evaluationPlan(resultCall({ huge: false }), { minCalls: 1, maxCalls: 40, maxTurns: 2 }),
          expectPromisesKept,
        ),
        { numRuns: 60 },
      );
    });

    it.each(hostileResults.map((result) => [result.label, result]))(
      'keeps every promise when a handler returns %s',
      async (_label, result) => {
        await expectPromisesKept([
          [
            { name: 'produce', args: undefined, idSuffix: '', returns: result },
            { name: 'peek', args: undefined, idSuffix: '', returns: result, async: true },
            { name: 'ping', args: undefined, idSuffix: '' },
          ],
        ]);
      },
    );
  });

  describe('whatever a handler or a subscriber throws', () => {
    it('gives every call exactly one tool message and one ToolInvoked, in call order, resolves the evaluation and changes no prototype', async () => {
      await fc.assert(
        fc.asyncProperty(
          evaluationPlan(throwingCall({ huge: false }), { minCalls: 1, maxCalls: 40, maxTurns: 2 }),
          expectPromisesKept,
        ),
        { numRuns: 60 },
      );
    });

    it.each(hostileThrows.map((thrown) => [thrown.label, thrown]))(
      'keeps every promise when a handler or a ToolInvoked subscriber throws %s',
      async (_label, thrown) => {
        await expectPromisesKept([
          [
            { name: 'explode', args: undefined, idSuffix: '', throws: thrown },
            { name: 'explode', args: undefined, idSuffix: '', throws: thrown, async: true },
            { name: 'peek', args: undefined, idSuffix: '', throws: thrown },
            { name: 'ping', args: undefined, idSuffix: '', subscriberThrows: thrown },
          ],
        ]);
      },
    );
  });

  describe('whatever decoded arguments an adapter hands over', () => {
    it('gives every call exactly one tool message and one ToolInvoked, in call order, resolves the evaluation and changes no prototype', async () => {
      await fc.assert(
        fc.asyncProperty(
          evaluationPlan(decodedCall({ huge: false }), { minCalls: 1, maxCalls: 40, maxTurns: 2 }),
          expectPromisesKept,
        ),
        { numRuns: 60 },
      );
    });

    it.each(hostileDecodedArguments.map((args) => [args.label, args]))(
      'keeps every promise when the arguments are %s',
      async (_label, args) => {
        const calls: CallPlan[] = ['search', 'ping', 'create_order', 'nope'].map((name) => ({
          name,
          args,
          decoded: true,
          idSuffix: '',
        }));
        await expectPromisesKept([calls]);
      },
    );
  });

  describe('all of it mixed in one evaluation', () => {
    it('gives every call exactly one tool message and one ToolInvoked, in call order, resolves the evaluation and changes no prototype', async () => {
      await fc.assert(
        fc.asyncProperty(
          evaluationPlan(anyCall({ huge: false }), { minCalls: 1, maxCalls: 60, maxTurns: 3 }),
          expectPromisesKept,
        ),
        { numRuns: 40 },
      );
    });
  });

  it('labels every hostile value so a counterexample names it', () => {
    for (const hostile of [...hostileResults, ...hostileThrows, ...hostileDecodedArguments]) {
      expect(hostile).toBeInstanceOf(Hostile);
      expect(fc.stringify(hostile)).toBe(`Hostile(${hostile.label})`);
    }
  });
});
