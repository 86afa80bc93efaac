import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Container } from 'inversify';

import { installAffordance } from 'affordance';
import {
  answerMatches,
  compareEvalReports,
  defineEvalSuite,
  evalSuiteTest,
  expectEvalSuite,
  formatEvalComparison,
  type EvalReport,
  llmJudge,
  loadEvalCases,
  readEvalReport,
  runEvalSuite,
  writeEvalReport,
} from 'affordance/evals';
import { ScriptedAdapter } from 'affordance/testing';

import {
  blindRefund,
  goodRefund,
  orderDeskPrompt,
  scriptedAdapterFor,
} from './order-desk-suite.js';

function runtime() {
  return installAffordance(new Container());
}

function suiteOf(scripts: Record<string, typeof goodRefund>) {
  return defineEvalSuite({
    name: 'orders',
    prompt: orderDeskPrompt(),
    adapter: scriptedAdapterFor,
    cases: Object.entries(scripts).map(([id, script]) => ({
      id,
      input: 'x',
      data: { script },
      expected: { calls: [{ tool: 'lookup_order' }, { tool: 'refund_order' }] },
    })),
  });
}

describe('loadEvalCases', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evals-cases-'));
  const write = (name: string, lines: string[]): string => {
    const path = join(dir, name);
    writeFileSync(path, lines.join('\n'));
    return path;
  };

  it('reads one case per line, skipping blank lines', async () => {
    const path = write('good.jsonl', [
      '{"id":"late","input":"A-17 is late","tags":["refunds"],"expected":{"calls":[{"tool":"lookup_order","arguments":{"orderId":"A-17"}}],"contains":["refund"],"maxTurns":4}}',
      '',
      '{"id":"params","params":{"orderId":"A-18"},"data":{"note":1}}',
    ]);
    const cases = await loadEvalCases(path, {
      params: (raw, id) => [{ ...raw, caseId: id }],
    });
    expect(cases).toEqual([
      {
        id: 'late',
        input: 'A-17 is late',
        tags: ['refunds'],
        expected: {
          calls: [{ tool: 'lookup_order', arguments: { orderId: 'A-17' } }],
          contains: ['refund'],
          maxTurns: 4,
        },
      },
      { id: 'params', data: { note: 1 }, params: [{ orderId: 'A-18', caseId: 'params' }] },
    ]);
  });

  it.each([
    ['{"id":"a"', /^.*bad\.jsonl:3: is not JSON/],
    ['{"id":"a b"}', /bad\.jsonl:3, field id: must be 1 to 128 letters/],
    ['{"id":"a","inputs":"x"}', /bad\.jsonl:3, field inputs: is not a field of an eval case/],
    [
      '{"id":"a","expected":{"calls":[{"tool":""}]}}',
      /bad\.jsonl:3, field expected\.calls\[0\]\.tool: must be a tool name/,
    ],
    [
      '{"id":"a","expected":{"matches":"(a)\\\\1"}}',
      /bad\.jsonl:3, field expected\.matches: .*backreference/,
    ],
    [
      '{"id":"a","expected":{"maxTurns":-1}}',
      /bad\.jsonl:3, field expected\.maxTurns: must be a number >= 0, got -1/,
    ],
    [
      '{"id":"a","expected":{"answr":"x"}}',
      /bad\.jsonl:3, field expected\.answr: is not an expectation/,
    ],
    ['{"id":"a","params":{"x":1}}', /bad\.jsonl:3, field params: .*no params option/],
    ['[1]', /bad\.jsonl:3, field \(line\): must be an object, got an array/],
  ])('names the file, line and field of %s', async (line, message) => {
    const path = write('bad.jsonl', ['{"id":"ok"}', '', line]);
    const error = await loadEvalCases(path).catch((thrown: unknown) => thrown);
    expect((error as Error).message).toContain(`${path}:3`);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain('Fix:');
  });

  it('refuses a repeated id, naming the first line', async () => {
    const path = write('twice.jsonl', ['{"id":"a"}', '{"id":"a"}']);
    await expect(loadEvalCases(path)).rejects.toThrow(
      `${path}:2, field id: repeats 'a' of line 1.`,
    );
  });
});

describe('answerMatches', () => {
  it('refuses a pattern that would not run in linear time, when the scorer is made', () => {
    expect(() => answerMatches('(a+)\\1')).toThrow(
      /Scorer 'answer-matches' pattern .*backreference/,
    );
  });
});

describe('compareEvalReports and writeEvalReport', () => {
  it('finds regressions and improvements, and round-trips the report file', async () => {
    const baseline = await runEvalSuite(
      suiteOf({ keeps: goodRefund, breaks: goodRefund, mends: blindRefund, gone: goodRefund }),
      { runtime: runtime(), progress: false },
    );
    const current = await runEvalSuite(
      suiteOf({ keeps: goodRefund, breaks: blindRefund, mends: goodRefund, fresh: goodRefund }),
      { runtime: runtime(), progress: false },
    );
    const dir = mkdtempSync(join(tmpdir(), 'evals-report-'));
    const path = await writeEvalReport(baseline, dir);
    expect(path).toBe(join(dir, 'report.json'));
    const read = await readEvalReport(dir);
    expect(read).toEqual(JSON.parse(readFileSync(path, 'utf8')) as EvalReport);

    const comparison = compareEvalReports(read, current);
    expect(comparison).toEqual({
      baseline: { startedAt: baseline.startedAt, passRate: 0.75 },
      current: { startedAt: current.startedAt, passRate: 0.75 },
      regressions: [{ id: 'breaks', failedScorers: ['calls-in-order'] }],
      improvements: ['mends'],
      added: ['fresh'],
      removed: ['gone'],
      scorerDeltas: [{ scorer: 'calls-in-order', delta: 0 }],
    });
    expect(formatEvalComparison(comparison)).toBe(
      [
        'pass rate 75.0% → 75.0%: 1 regression(s), 1 improvement(s)',
        '  regressed: breaks (calls-in-order)',
        '  improved: mends',
        '  added: fresh',
        '  removed: gone',
      ].join('\n'),
    );
    expect(() =>
      compareEvalReports({ schemaVersion: 2 } as unknown as EvalReport, current),
    ).toThrow('compareEvalReports baseline report: is not an eval report of schema version 1');
  });
});

describe('expectEvalSuite', () => {
  it('throws the table of failed cases below the pass rate, and returns the report above it', async () => {
    const suite = suiteOf({ good: goodRefund, blind: blindRefund });
    const error = await expectEvalSuite(suite, { runtime: runtime(), minPassRate: 0.6 }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      new RegExp(
        [
          "^Eval suite 'orders' passed 50\\.0% of its cases, below the 60\\.0% required\\.",
          '',
          'orders: 1/2 cases passed \\(50\\.0%\\), 1 trial\\(s\\) each, 510 tokens, p50 \\d+ ms',
          '',
          'case   trials  failed scorer: reason',
          'blind  0/1     calls-in-order: expected lookup_order \\(call 1 of 2 in order\\); the trial made refund_order$',
        ].join('\n'),
      ),
    );
    const report = await expectEvalSuite(suite, { runtime: runtime(), minPassRate: 0.5 });
    expect(report.summary.passRate).toBe(0.5);
  });

  it('registers one test through the runner it is given', async () => {
    const registered: [string, () => Promise<void>][] = [];
    evalSuiteTest((name, run) => registered.push([name, run]), suiteOf({ blind: blindRefund }), {
      runtime: runtime(),
    });
    expect(registered.map(([name]) => name)).toEqual([
      'eval suite orders passes at least 100.0% of its cases',
    ]);
    await expect(registered[0]?.[1]()).rejects.toThrow(/passed 0\.0% of its cases/);
  });
});

describe('llmJudge', () => {
  it('asks the judge through its own adapter and takes its verdict, score and reason', async () => {
    const judge = new ScriptedAdapter([
      { text: JSON.stringify({ score: 0.8, reason: 'Gives the refund and the order id.' }) },
      { text: JSON.stringify({ score: 0.2, reason: 'No apology.' }) },
    ]);
    const suite = defineEvalSuite({
      name: 'judged',
      prompt: orderDeskPrompt(),
      adapter: scriptedAdapterFor,
      scorers: [
        llmJudge({ rubric: 'The reply confirms the refund.', adapter: judge, threshold: 0.5 }),
      ],
      cases: [
        { id: 'first', input: 'A-17 is late', data: { script: goodRefund } },
        { id: 'second', input: 'refund A-18', data: { script: blindRefund } },
      ],
    });
    const report = await runEvalSuite(suite, {
      runtime: runtime(),
      concurrency: 1,
      progress: false,
    });
    expect(report.cases.map((result) => result.trials[0]?.scores[0])).toEqual([
      { scorer: 'judge', score: 0.8, passed: true, reason: 'Gives the refund and the order id.' },
      { scorer: 'judge', score: 0.2, passed: false, reason: 'No apology.' },
    ]);
    judge.assertDone();
    const [first] = judge.requests;
    expect(first?.messages[0]).toEqual({
      role: 'system',
      content: expect.stringContaining('The reply confirms the refund.') as unknown,
    });
    expect(first?.messages.at(-1)).toEqual({
      role: 'user',
      content:
        'Case: first\n\nInput:\nA-17 is late\n\nAnswer to grade:\n' +
        '{"action":"refunded","reply":"Order A-17 was late: refunded."}',
    });
  });

  it('fails the score, with the validation problem, when the verdict is invalid', async () => {
    const judge = new ScriptedAdapter([{ text: JSON.stringify({ score: 3, reason: 'great' }) }]);
    const suite = defineEvalSuite({
      name: 'judged',
      prompt: orderDeskPrompt(),
      adapter: scriptedAdapterFor,
      scorers: [llmJudge({ rubric: 'Anything.', adapter: judge })],
      cases: [{ id: 'only', input: 'x', data: { script: goodRefund } }],
    });
    const report = await runEvalSuite(suite, { runtime: runtime(), progress: false });
    const score = report.cases[0]?.trials[0]?.scores[0];
    expect(score?.passed).toBe(false);
    expect(score?.reason).toMatch(
      /^the scorer failed: .*Output JudgeVerdict: .*score: must not be greater than 1/,
    );
  });
});
