import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { EvalReport } from 'affordance/evals';
import type { SessionExport } from 'affordance/inspector';

import { run } from '../../examples/evals/main.js';

/** Every trial names its session export, which holds that trial's session, with its inspector page beside it. */
function expectSessionFiles(dir: string, report: EvalReport | undefined): void {
  const trials = (report?.cases ?? []).flatMap((entry) =>
    entry.trials.map((trial) => ({ caseId: entry.id, trial })),
  );
  expect(trials).toHaveLength(20);
  for (const { caseId, trial } of trials) {
    expect(trial.sessionFile).toBe(`sessions/${caseId}-${trial.trial}.json`);
    const exported = JSON.parse(
      readFileSync(join(dir, trial.sessionFile ?? ''), 'utf8'),
    ) as SessionExport;
    expect(exported.sessionId).toBe(trial.sessionId);
    const calls = exported.events.flatMap((event) =>
      event.kind === 'tool-call' ? [[event.tool, event.outcome]] : [],
    );
    expect(calls).toEqual(trial.toolCalls.map((call) => [call.name, call.outcome]));
    expect(existsSync(join(dir, `sessions/${caseId}-${trial.trial}.html`))).toBe(true);
  }
  expect(readdirSync(join(dir, 'sessions'))).toHaveLength(40);
}

describe('examples/evals', () => {
  it('runs the 20 support-desk cases offline, then shows the regressions of the worse prompt', async () => {
    const out = mkdtempSync(join(tmpdir(), 'evals-example-'));
    const lines: string[] = [];
    const { baseline, current, comparison, exitCode } = await run(
      (line) => lines.push(line),
      ['--worse'],
      out,
    );
    const output = lines.join('\n');

    expect(baseline.cases).toHaveLength(20);
    expect(baseline.summary.passRate).toBe(0.95);
    expect(
      baseline.cases.filter((result) => result.passAtK === 0).map((result) => result.id),
    ).toEqual(['double-charge']);
    expect(output).toMatch(
      /^support-desk: 19\/20 cases passed \(95\.0%\), 1 trial\(s\) each, \d+ tokens, p50 \d+ ms\n\ncase {11}trials {2}failed scorer: reason\ndouble-charge {2}0\/1 {5}output-fields: output resolution is "ticket_opened", expected "answered"\n {23}never-called: called open_ticket \(1 time\(s\)\), which it must not\n/,
    );
    const judged = baseline.cases.find((result) => result.id === 'angry-outage')?.trials[0];
    expect(judged?.scores.find((score) => score.scorer === 'judge-empathy')).toEqual({
      scorer: 'judge-empathy',
      score: 0.9,
      passed: true,
      reason: 'Apologises for the outages and gives the ticket id.',
    });
    expect(judged?.toolCalls.map((call) => [call.name, call.outcome])).toEqual([
      ['search_knowledge_base', 'success'],
      ['open_ticket', 'success'],
    ]);
    expect(baseline.config.provider).toBe('scripted');
    expect(baseline.summary.costUsd).toBeGreaterThan(0);

    expect(current?.summary.passRate).toBe(0.65);
    expect(comparison?.regressions).toEqual([
      { id: 'locked-out', failedScorers: ['output-fields', 'calls-in-order'] },
      { id: 'login-loop', failedScorers: ['output-fields', 'calls-in-order'] },
      { id: 'refund-old-order', failedScorers: ['output-fields', 'calls-in-order'] },
      { id: 'api-500', failedScorers: ['answer-matches', 'output-fields', 'calls-in-order'] },
      { id: 'sso-broken', failedScorers: ['answer-matches', 'output-fields', 'calls-in-order'] },
      { id: 'slow-search', failedScorers: ['answer-matches', 'output-fields', 'calls-in-order'] },
      { id: 'angry-outage', failedScorers: ['judge-empathy'] },
    ]);
    expect(comparison?.improvements).toEqual(['double-charge']);
    expect(output).toContain(
      'pass rate 95.0% → 65.0%: 7 regression(s), 1 improvement(s)\n  regressed: locked-out (output-fields, calls-in-order)',
    );
    expect(exitCode).toBe(1);

    for (const [dir, report] of [
      ['careful', baseline],
      ['hasty', current],
    ] as const) {
      const path = join(out, dir, 'report.json');
      expect(output).toContain(`wrote ${path}`);
      expect(JSON.parse(readFileSync(path, 'utf8')) as EvalReport).toEqual(
        JSON.parse(JSON.stringify(report)) as EvalReport,
      );
      const html = join(out, dir, 'report.html');
      expect(output).toContain(`wrote ${html} (open it in a browser)`);
      expect(readFileSync(html, 'utf8')).toMatch(/^<!doctype html>/);
      expectSessionFiles(join(out, dir), report);
    }
    // The worse run's page is compared with the careful one: its regressions are marked.
    expect(readFileSync(join(out, 'hasty', 'report.html'), 'utf8')).toContain(
      `<span id="regression-count">${comparison?.regressions.length}</span>`,
    );
  });

  it('exits 0 and writes the careful report only, without --worse', async () => {
    const out = mkdtempSync(join(tmpdir(), 'evals-example-'));
    const { current, exitCode } = await run(() => undefined, [], out);
    expect(current).toBeUndefined();
    expect(exitCode).toBe(0);
    expect(
      (JSON.parse(readFileSync(join(out, 'careful', 'report.json'), 'utf8')) as EvalReport).summary
        .cases,
    ).toBe(20);
  });
});
