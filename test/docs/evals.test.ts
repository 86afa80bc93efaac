import { jest } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { defineEvalSuite, type EvalReport, runEvalSuite, writeEvalReport } from 'affordance/evals';
import type { SessionExport } from 'affordance/inspector';
import { ScriptedAdapter } from 'affordance/testing';

import { registerRefundEvals, refundsKeepUp } from '../../docs/snippets/evals/in-tests.js';
import { evaluateWithPages, htmlReportFile } from '../../docs/snippets/evals/html-report.js';
import { toneJudge } from '../../docs/snippets/evals/judge.js';
import { refundSuiteFromFile } from '../../docs/snippets/evals/load-cases.js';
import { createRuntime, refundPrompt } from '../../docs/snippets/evals/refund-desk.js';
import { evaluateRefunds, progressSeen, reportFile } from '../../docs/snippets/evals/run.js';
import { refundSuite } from '../../docs/snippets/evals/suite.js';

describe('docs/guide/evals.md', () => {
  it('scores the suite: the late order passes, the refund without a reason fails with reasons', async () => {
    const report = await runEvalSuite(refundSuite, { progress: false });
    const [late, noReason] = report.cases;
    expect(late?.passAtK).toBe(1);
    expect(late?.trials[0]?.scores.map((score) => score.scorer)).toEqual([
      'polite-reply',
      'output-fields',
      'calls-in-order',
      'budget',
      'valid-refund',
    ]);
    expect(noReason?.passAtK).toBe(0);
    expect(
      Object.fromEntries(
        (noReason?.trials[0]?.scores ?? []).map((score) => [
          score.scorer,
          [score.passed, score.reason],
        ]),
      ),
    ).toEqual({
      'polite-reply': [false, 'reply: "Order A-18 is refunded."'],
      'output-fields': [false, 'output decision is "refunded", expected "declined"'],
      'answer-contains': [true, 'the answer contains "A-18"'],
      'never-called-refund_order': [false, 'called refund_order (1 time(s)), which it must not'],
    });
  });

  it('writes the report and compares a run with its baseline', async () => {
    const logged: unknown[] = [];
    const log = jest
      .spyOn(console, 'log')
      .mockImplementation((line: unknown) => void logged.push(line));
    try {
      const dir = mkdtempSync(join(tmpdir(), 'docs-evals-'));
      const first = await evaluateRefunds(join(dir, 'first'));
      expect(first.report.config.trials).toBe(3);
      expect(progressSeen.slice(0, 6).sort()).toEqual(['1/6', '2/6', '3/6', '4/6', '5/6', '6/6']);
      expect(first.report.cases.map((result) => result.passRate)).toEqual([1, 0]);
      const written = JSON.parse(
        readFileSync(reportFile(join(dir, 'first')), 'utf8'),
      ) as EvalReport;
      expect(written.summary.passRate).toBe(0.5);
      const second = await evaluateRefunds(join(dir, 'second'), reportFile(join(dir, 'first')));
      expect(second.comparison).toMatchObject({
        regressions: [],
        improvements: [],
        added: [],
        removed: [],
      });
      expect(String(logged[0])).toMatch(
        /^refunds: 1\/2 cases passed \(50\.0%\), 3 trial\(s\) each/,
      );
      expect(String(logged[0])).toContain(
        'no-reason  0/3     polite-reply: reply: "Order A-18 is refunded."',
      );
    } finally {
      log.mockRestore();
    }
  });

  it('writes the HTML report beside the JSON, linking each trial to its session page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-evals-html-'));
    const first = await evaluateWithPages(join(dir, 'first'));
    const second = await evaluateWithPages(join(dir, 'second'), join(dir, 'first'));
    for (const [out, report] of [
      [join(dir, 'first'), first],
      [join(dir, 'second'), second],
    ] as const) {
      const html = readFileSync(htmlReportFile(out), 'utf8');
      for (const entry of report.cases) {
        const trial = entry.trials[0];
        expect(trial?.sessionFile).toBe(`sessions/${entry.id}-1.json`);
        expect(html).toContain(`href="sessions/${entry.id}-1.html"`);
        const exported = JSON.parse(
          readFileSync(join(out, trial?.sessionFile ?? ''), 'utf8'),
        ) as SessionExport;
        expect(exported.sessionId).toBe(trial?.sessionId);
        expect(existsSync(join(out, `sessions/${entry.id}-1.html`))).toBe(true);
      }
    }
    // Written elsewhere than the run's reportDir, the report links to no missing page.
    await writeEvalReport(first, join(dir, 'elsewhere'));
    expect(readFileSync(htmlReportFile(join(dir, 'elsewhere')), 'utf8')).not.toContain(
      'class="inspect"',
    );
    // The second run's page is compared with the first: nothing regressed.
    expect(readFileSync(htmlReportFile(join(dir, 'second')), 'utf8')).toContain(
      '<span id="regression-count">0</span>',
    );
  });

  it('grades with the judge and its own verdict class', async () => {
    const judge = new ScriptedAdapter([
      { text: JSON.stringify({ tone: 'warm', why: 'It apologises.' }) },
    ]);
    const suite = defineEvalSuite({
      name: 'tone',
      prompt: refundPrompt,
      runtime: createRuntime,
      adapter: () =>
        new ScriptedAdapter([
          {
            text: JSON.stringify({ decision: 'declined', reply: 'Sorry, we cannot refund A-18.' }),
          },
        ]),
      scorers: [toneJudge(judge)],
      cases: [{ id: 'upset', input: 'Refund A-18 now!' }],
    });
    const report = await runEvalSuite(suite, { progress: false });
    expect(report.cases[0]?.trials[0]?.scores).toEqual([
      { scorer: 'tone', score: 1, passed: true, reason: 'warm: It apologises.' },
    ]);
    judge.assertDone();
  });

  it('runs the suite inside a test', async () => {
    const registered: [string, () => Promise<void>][] = [];
    registerRefundEvals((name, run) => registered.push([name, run]));
    expect(registered.map(([name]) => name)).toEqual([
      'eval suite refunds passes at least 50.0% of its cases',
    ]);
    await registered[0]?.[1]();
    await expect(refundsKeepUp()).resolves.toBe(0.5);
  });

  it('loads the cases of the JSONL file', async () => {
    const suite = await refundSuiteFromFile('docs/snippets/evals/cases.jsonl');
    expect(suite.cases).toEqual([
      {
        id: 'late-order',
        input: 'Order A-17 came a week late.',
        tags: ['refunds'],
        expected: {
          calls: [{ tool: 'lookup_order', arguments: { orderId: 'A-17' } }],
          output: { decision: 'refunded' },
        },
      },
      {
        id: 'no-reason',
        input: 'Refund A-18, I changed my mind.',
        expected: { notCalled: ['refund_order'], matches: 'A-\\d+' },
      },
    ]);
  });
});
