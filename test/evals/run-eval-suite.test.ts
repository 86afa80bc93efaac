import { Container, inject, injectable } from 'inversify';

import { ConfigurationError, installAffordance, Session, ToolInvoked } from 'affordance';
import { InMemorySessionStore, SessionCodec, SessionPersistence } from 'affordance/durable';
import {
  calledInOrder,
  calledTool,
  defineEvalSuite,
  type EvalObservation,
  type EvalProgress,
  type EvalScore,
  type EvalScorer,
  maxToolCalls,
  neverCalled,
  runEvalSuite,
} from 'affordance/evals';

import {
  answer,
  blindRefund,
  call,
  DeskAnswer,
  goodRefund,
  LateRefund,
  LookupOrderParams,
  orderDeskPrompt,
  RefundOrderParams,
  scriptedAdapterFor,
} from './order-desk-suite.js';

function runtime() {
  return installAffordance(new Container());
}

describe('runEvalSuite', () => {
  it('scores answers, outputs, trajectories and budgets with readable reasons', async () => {
    const suite = defineEvalSuite({
      name: 'orders',
      prompt: orderDeskPrompt(),
      adapter: scriptedAdapterFor,
      cases: [
        {
          id: 'late-refund',
          input: 'A-17 came late, refund please',
          tags: ['refunds'],
          expected: {
            contains: 'refunded',
            matches: 'A-\\d+ was late',
            output: { action: 'refunded' },
            calls: [
              { tool: 'lookup_order', arguments: { orderId: 'A-17' } },
              { tool: 'refund_order', arguments: { reason: 'late' } },
            ],
            maxCalls: 2,
            maxTurns: 3,
            maxTokens: 1000,
          },
        },
        {
          id: 'blind-refund',
          input: 'refund A-18',
          data: { script: blindRefund },
          expected: {
            calls: [{ tool: 'lookup_order' }, { tool: 'refund_order' }],
            output: { action: 'explained' },
            notCalled: ['refund_order'],
            maxTokens: 50,
          },
        },
      ].map((entry) =>
        entry.id === 'late-refund' ? { ...entry, data: { script: goodRefund } } : entry,
      ),
    });

    const report = await runEvalSuite(suite, { runtime: runtime(), progress: false });

    expect(report.schemaVersion).toBe(1);
    expect(report.suite).toBe('orders');
    expect(report.config).toEqual({ trials: 1, concurrency: 4, provider: 'scripted' });
    const [late, blind] = report.cases;
    expect(late?.passAtK).toBe(1);
    expect(late?.tags).toEqual(['refunds']);
    expect(late?.trials[0]?.scores.map((score) => [score.scorer, score.passed])).toEqual([
      ['answer-contains', true],
      ['answer-matches', true],
      ['output-fields', true],
      ['calls-in-order', true],
      ['max-calls', true],
      ['budget', true],
    ]);
    expect(late?.trials[0]?.toolCalls).toEqual([
      expect.objectContaining({
        name: 'lookup_order',
        arguments: { orderId: 'A-17' },
        outcome: 'success',
      }),
      expect.objectContaining({
        name: 'refund_order',
        arguments: { orderId: 'A-17', reason: 'late' },
      }),
    ]);
    expect(late?.trials[0]?.usage).toEqual({
      inputTokens: 260,
      outputTokens: 40,
      totalTokens: 300,
    });
    expect(late?.trials[0]?.turns).toBe(3);

    expect(blind?.passAtK).toBe(0);
    const reasons = Object.fromEntries(
      (blind?.trials[0]?.scores ?? []).map((score) => [score.scorer, score.reason]),
    );
    expect(reasons).toEqual({
      'output-fields': 'output action is "refunded", expected "explained"',
      'calls-in-order': 'expected lookup_order (call 1 of 2 in order); the trial made refund_order',
      'never-called': 'called refund_order (1 time(s)), which it must not',
      budget: 'over budget: 210 tokens (limit 50)',
    });
    expect(blind?.trials[0]?.scores.find((score) => score.scorer === 'calls-in-order')?.score).toBe(
      0,
    );

    expect(report.summary.passRate).toBe(0.5);
    expect(report.summary.totalTokens).toBe(510);
    const budget = report.scorers.find((scorer) => scorer.scorer === 'budget');
    expect(budget).toMatchObject({ passRate: 0.5, meanScore: 0.5 });
    expect(budget?.histogram).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  });

  it('matches call arguments against a class-validator class and says which field failed', async () => {
    const suite = defineEvalSuite({
      name: 'classes',
      prompt: orderDeskPrompt(),
      adapter: scriptedAdapterFor,
      scorers: [calledTool('refund_order', { arguments: LateRefund })],
      cases: [
        { id: 'late', input: 'x', data: { script: goodRefund } },
        { id: 'asked', input: 'x', data: { script: blindRefund } },
      ],
    });
    const report = await runEvalSuite(suite, { runtime: runtime(), progress: false });
    expect(report.cases.map((result) => result.trials[0]?.scores[0])).toEqual([
      {
        scorer: 'called-refund_order',
        score: 1,
        passed: true,
        reason: 'called refund_order(LateRefund) in order',
      },
      {
        scorer: 'called-refund_order',
        score: 0,
        passed: false,
        reason:
          'expected refund_order(LateRefund) (call 1 of 1 in order) but its arguments fail LateRefund ' +
          '(reason: reason must be one of the following values: late); the trial made refund_order',
      },
    ]);
  });

  it('gives pass@k over repeated trials and keeps every trial in its own session', async () => {
    const sessions = new Map<string, Session>();
    const suite = defineEvalSuite({
      name: 'flaky',
      prompt: orderDeskPrompt(),
      adapter: scriptedAdapterFor,
      scorers: [calledInOrder([{ tool: 'lookup_order' }, { tool: 'refund_order' }])],
      cases: [
        { id: 'flaky', input: 'x', data: { scripts: [blindRefund, goodRefund, blindRefund] } },
        { id: 'broken', input: 'x', data: { script: blindRefund } },
      ],
    });
    const progress: EvalProgress[] = [];
    const report = await runEvalSuite(suite, {
      runtime: runtime(),
      trials: 3,
      sessions,
      progress: false,
      onProgress: (entry) => progress.push(entry),
    });
    const [flaky, broken] = report.cases;
    expect(flaky?.trials.map((trial) => trial.passed)).toEqual([false, true, false]);
    expect(flaky?.passAtK).toBe(1);
    expect(flaky?.passRate).toBeCloseTo(1 / 3);
    expect(broken?.passAtK).toBe(0);
    expect(report.summary.passRate).toBe(0.5);

    expect(progress).toHaveLength(6);
    expect(progress.at(-1)).toMatchObject({ done: 6, total: 6, failed: 5, suite: 'flaky' });
    const ids = report.cases.flatMap((result) => result.trials.map((trial) => trial.sessionId));
    expect(new Set(ids).size).toBe(6);
    expect([...sessions.keys()].sort()).toEqual([...ids].sort());
    const second = sessions.get(flaky?.trials[1]?.sessionId ?? '');
    expect([...(second?.view.slice(ToolInvoked) ?? [])].map((event) => event.name)).toEqual([
      'lookup_order',
      'refund_order',
    ]);
  });

  it('commits each trial session to a durable store, and fails a trial whose session cannot be stored', async () => {
    const store = new InMemorySessionStore();
    const codec = new SessionCodec({ classes: [LookupOrderParams, RefundOrderParams, DeskAnswer] });
    const suite = defineEvalSuite({
      name: 'durable',
      prompt: orderDeskPrompt(),
      adapter: scriptedAdapterFor,
      scorers: [maxToolCalls(5)],
      cases: [{ id: 'late', input: 'x', data: { script: goodRefund } }],
    });
    const report = await runEvalSuite(suite, {
      runtime: runtime(),
      sessions: new SessionPersistence({ store, codec }),
      progress: false,
    });
    const sessionId = report.cases[0]?.trials[0]?.sessionId ?? '';
    expect(report.cases[0]?.trials[0]?.passed).toBe(true);
    const stored = await store.load(sessionId);
    expect(stored?.sessionId).toBe(sessionId);
    expect(stored?.slices.map((slice) => slice.name)).toEqual(
      expect.arrayContaining(['ToolInvoked', 'PromptExecuted']),
    );

    const unknownClasses = await runEvalSuite(suite, {
      runtime: runtime(),
      sessions: new SessionPersistence({ store }),
      progress: false,
    });
    const trial = unknownClasses.cases[0]?.trials[0];
    expect(trial?.passed).toBe(false);
    expect(trial?.scores[0]?.passed).toBe(true);
    expect(trial?.error).toMatch(
      /^the trial's session could not be kept: Session .*LookupOrderParams, a class the session codec does not know/,
    );
  });

  it('runs at most `concurrency` trials at once', async () => {
    let running = 0;
    let most = 0;
    const prompt = orderDeskPrompt({
      lookup: async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running -= 1;
      },
    });
    const suite = defineEvalSuite({
      name: 'parallel',
      prompt,
      adapter: scriptedAdapterFor,
      scorers: [calledTool('lookup_order')],
      cases: Array.from({ length: 7 }, (_, index) => ({
        id: `case-${index}`,
        input: 'x',
        data: { script: goodRefund },
      })),
    });
    const report = await runEvalSuite(suite, {
      runtime: runtime(),
      concurrency: 3,
      progress: false,
    });
    expect(report.summary.passRate).toBe(1);
    expect(most).toBe(3);
  });

  it('fails a trial that misses its deadline, with every score failed, and goes on', async () => {
    const prompt = orderDeskPrompt({
      lookup: (orderId) =>
        orderId === 'A-17' ? new Promise<void>(() => undefined) : Promise.resolve(),
    });
    const suite = defineEvalSuite({
      name: 'slow',
      prompt,
      adapter: scriptedAdapterFor,
      scorers: [calledTool('lookup_order'), neverCalled('refund_order')],
      cases: [
        { id: 'hangs', input: 'x', data: { script: goodRefund } },
        {
          id: 'quick',
          input: 'x',
          data: {
            script: [call('lookup_order', { orderId: 'A-18' }), answer('explained', 'on time')],
          },
        },
      ],
    });
    const report = await runEvalSuite(suite, {
      runtime: runtime(),
      deadlineMs: 1000,
      progress: false,
    });
    const [hangs, quick] = report.cases;
    expect(hangs?.trials[0]?.error).toMatch(/deadline/i);
    expect(hangs?.trials[0]?.answer).toBeNull();
    expect(hangs?.trials[0]?.scores.every((score) => !score.passed)).toBe(true);
    expect(hangs?.trials[0]?.scores[0]?.reason).toMatch(/^the run failed: .*deadline/i);
    expect(quick?.passAtK).toBe(1);
  });

  it('runs a suite through its run function, and stops one that ignores the deadline', async () => {
    const prompt = orderDeskPrompt();
    const suite = defineEvalSuite({
      name: 'run-function',
      run: (evalCase, context) =>
        evalCase.id === 'ignores-deadline'
          ? new Promise(() => undefined)
          : context.runtime.evaluate(prompt, {
              adapter: scriptedAdapterFor(evalCase, context.trial),
              input: `${evalCase.input ?? ''} (trial ${context.trial})`,
              session: context.session,
              deadline: context.deadline,
              signal: context.signal,
            }),
      scorers: [calledTool('refund_order')],
      cases: [
        { id: 'refunds', input: 'A-17 is late', data: { script: goodRefund } },
        { id: 'ignores-deadline', input: 'x' },
      ],
    });
    const report = await runEvalSuite(suite, {
      runtime: runtime(),
      deadlineMs: 1000,
      progress: false,
    });
    const [refunds, stuck] = report.cases;
    expect(refunds?.passAtK).toBe(1);
    expect(stuck?.trials[0]?.error).toBe('the case took longer than its deadline of 1000 ms');
  });

  it('resolves a custom scorer class from the runtime container, with its injected services', async () => {
    @injectable()
    class RefundRules {
      readonly maxRefunds = 0;
    }
    @injectable()
    class NoRefunds implements EvalScorer {
      readonly name = 'no-refunds';
      constructor(@inject(RefundRules) private readonly rules: RefundRules) {}
      score(trial: EvalObservation): EvalScore {
        const refunds = trial.toolCalls.filter((event) => event.name === 'refund_order').length;
        const passed = refunds <= this.rules.maxRefunds;
        return { scorer: this.name, score: passed ? 1 : 0, passed, reason: `${refunds} refund(s)` };
      }
    }
    const container = new Container();
    container.bind(RefundRules).toSelf().inSingletonScope();
    const suite = defineEvalSuite({
      name: 'custom',
      prompt: orderDeskPrompt(),
      adapter: scriptedAdapterFor,
      scorers: [NoRefunds],
      cases: [
        { id: 'refund', input: 'x', data: { script: goodRefund } },
        {
          id: 'none',
          input: 'x',
          data: { script: [call('lookup_order', { orderId: 'A-18' }), answer('explained', 'ok')] },
        },
      ],
    });
    const report = await runEvalSuite(suite, {
      runtime: installAffordance(container),
      progress: false,
    });
    expect(report.cases.map((result) => result.trials[0]?.scores[0]?.reason)).toEqual([
      '1 refund(s)',
      '0 refund(s)',
    ]);
    expect(container.isBound(NoRefunds)).toBe(false);
  });

  it('fails a scorer that throws or rejects with its message, and still scores the others in order', async () => {
    const scorer = (name: string, score: EvalScorer['score']): EvalScorer => ({ name, score });
    const ok = (name: string): EvalScore => ({
      scorer: name,
      score: 1,
      passed: true,
      reason: 'fine',
    });
    const suite = defineEvalSuite({
      name: 'scorers',
      prompt: orderDeskPrompt(),
      adapter: scriptedAdapterFor,
      scorers: [
        scorer('sync', () => ok('sync')),
        scorer('throws', () => {
          throw new Error('no rubric');
        }),
        scorer('later', () => Promise.resolve(ok('later'))),
        scorer('rejects', () => Promise.reject(new Error('judge offline'))),
        scorer('last', () => ok('last')),
      ],
      cases: [{ id: 'refund', input: 'x', data: { script: goodRefund } }],
    });
    const report = await runEvalSuite(suite, { runtime: runtime(), progress: false });
    const trial = report.cases[0]?.trials[0];
    expect(trial?.scores.map((score) => [score.scorer, score.passed, score.reason])).toEqual([
      ['sync', true, 'fine'],
      ['throws', false, 'the scorer failed: no rubric'],
      ['later', true, 'fine'],
      ['rejects', false, 'the scorer failed: judge offline'],
      ['last', true, 'fine'],
    ]);
    expect(trial?.passed).toBe(false);
  });

  it('writes a bar on a terminal and a line per trial elsewhere', async () => {
    const suite = defineEvalSuite({
      name: 'lines',
      prompt: orderDeskPrompt(),
      adapter: scriptedAdapterFor,
      scorers: [calledTool('lookup_order')],
      cases: [
        { id: 'good', input: 'x', data: { script: goodRefund } },
        { id: 'bad', input: 'x', data: { script: blindRefund } },
      ],
    });
    const plain: string[] = [];
    await runEvalSuite(suite, {
      runtime: runtime(),
      concurrency: 1,
      progress: { write: (text: string) => plain.push(text) },
    });
    expect(plain).toEqual([
      'lines [1/2] pass good (trial 1)\n',
      'lines [2/2] FAIL bad (trial 1)\n',
    ]);
    const tty: string[] = [];
    await runEvalSuite(suite, {
      runtime: runtime(),
      concurrency: 1,
      progress: { write: (text: string) => tty.push(text), isTTY: true, columns: 80 },
    });
    expect(tty[1]).toMatch(/^\rlines \[#{24}\] 2\/2 trials, 1 failed {2}bad +$/);
    expect(tty[1]).toHaveLength(80);
    expect(tty.at(-1)).toBe('\n');
  });

  it('refuses bad options and suites before running anything', async () => {
    const suite = defineEvalSuite({
      name: 'x',
      prompt: orderDeskPrompt(),
      cases: [{ id: 'a', input: 'x' }],
    });
    await expect(runEvalSuite(suite, { runtime: runtime(), trials: 0 })).rejects.toThrow(
      'runEvalSuite trials: must be a whole number >= 1, got 0.',
    );
    await expect(runEvalSuite(suite, { runtime: runtime(), deadlineMs: 10 })).rejects.toThrow(
      /runEvalSuite deadlineMs: must be between 1000/,
    );
    await expect(runEvalSuite(suite, { runtime: runtime() })).rejects.toThrow(
      "Eval suite 'x', case 'a': has no scorer",
    );
    await expect(runEvalSuite(suite)).rejects.toThrow("Eval suite 'x': has no runtime to run on.");
    expect(() =>
      defineEvalSuite({ name: 'x', prompt: orderDeskPrompt(), cases: [{ id: 'a' }, { id: 'a' }] }),
    ).toThrow("Eval suite 'x', case 2: repeats the id 'a'.");
    expect(() => defineEvalSuite({ name: 'x', cases: [{ id: 'a' }] })).toThrow(ConfigurationError);
    expect(() =>
      defineEvalSuite({ name: 'x', prompt: orderDeskPrompt(), cases: [{ id: 'a b' }] }),
    ).toThrow(/case 1: has the id "a b"/);
    const twice = defineEvalSuite({
      name: 'twice',
      prompt: orderDeskPrompt(),
      scorers: [calledTool('lookup_order')],
      cases: [{ id: 'a', scorers: [calledTool('lookup_order')] }],
    });
    await expect(runEvalSuite(twice, { runtime: runtime() })).rejects.toThrow(
      "has two scorers named 'called-lookup_order'",
    );
  });
});
