/**
 * The `affordance-eval` command as CI runs it: the package built (dist/), the
 * example suites compiled (.build/), the command spawned with node. Checks the
 * exit codes: 0 passed, 1 below --min-pass or regressed, 2 usage errors.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { EvalComparison, EvalReport, EvalTrial } from 'affordance/evals';
import type { SessionExport } from 'affordance/inspector';

const root = process.cwd();
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const cli = join(root, 'dist/evals/cli/eval-cli.js');
const careful = join(root, '.build/examples/evals/careful.suite.js');
const hasty = join(root, '.build/examples/evals/hasty.suite.js');

beforeAll(() => {
  // The package (dist/, what the bin runs) and the examples beside it, as `npm run build:examples` does.
  execFileSync(process.execPath, [tsc, '-b', 'tsconfig.build.json', 'tsconfig.run.json'], {
    cwd: root,
    stdio: 'pipe',
  });
}, 300_000);

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function affordanceEval(...args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { cwd: root, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('affordance-eval', () => {
  const dir = mkdtempSync(join(tmpdir(), 'affordance-eval-'));
  const baselineDir = join(dir, 'careful');
  const baseline = join(baselineDir, 'report.json');

  it('exits 0 when the pass rate reaches --min-pass, and writes report.json', async () => {
    const outcome = await affordanceEval(
      'run',
      careful,
      '--min-pass',
      '0.9',
      '--out',
      baselineDir,
      '--concurrency',
      '8',
    );
    expect(outcome.code).toBe(0);
    // Not a terminal: the progress is one line per trial on stderr.
    const progress = outcome.stderr.split('\n').filter((line) => line !== '');
    expect(progress).toHaveLength(20);
    for (const line of progress) {
      expect(line).toMatch(/^support-desk \[\d+\/20\] (pass|FAIL) [a-z0-9-]+ \(trial 1\)$/);
    }
    expect(progress.filter((line) => line.includes('FAIL'))).toEqual([
      expect.stringMatching(/ FAIL double-charge \(trial 1\)$/),
    ]);
    expect(outcome.stdout).toMatch(
      /^support-desk: 19\/20 cases passed \(95\.0%\), 1 trial\(s\) each/,
    );
    expect(outcome.stdout).toContain(`wrote ${baseline}\n`);
    const report = JSON.parse(readFileSync(baseline, 'utf8')) as EvalReport;
    expect(report.summary.passRate).toBe(0.95);
    expect(report.config).toMatchObject({ trials: 1, concurrency: 8 });
    // The HTML report and every trial's session (its export and its inspector page) beside it.
    const html = join(baselineDir, 'report.html');
    expect(outcome.stdout).toContain(`wrote ${html}\n`);
    expect(readFileSync(html, 'utf8')).toContain('href="sessions/double-charge-1.html"');
    const trials = report.cases.flatMap((entry) =>
      entry.trials.map((trial): [string, EvalTrial] => [entry.id, trial]),
    );
    expect(trials).toHaveLength(20);
    for (const [caseId, trial] of trials) {
      expect(trial.sessionFile).toBe(`sessions/${caseId}-1.json`);
      const exported = JSON.parse(
        readFileSync(join(baselineDir, trial.sessionFile ?? ''), 'utf8'),
      ) as SessionExport;
      expect(exported.sessionId).toBe(trial.sessionId);
      expect(
        exported.events.filter((event) => event.kind === 'tool-call').map((event) => event.tool),
      ).toEqual(trial.toolCalls.map((call) => call.name));
      expect(existsSync(join(baselineDir, 'sessions', `${caseId}-1.html`))).toBe(true);
    }
  }, 60_000);

  it('exits 1 when cases regressed against the baseline, naming them, and writes the comparison', async () => {
    const out = join(dir, 'hasty');
    const outcome = await affordanceEval(
      'run',
      hasty,
      '--baseline',
      baseline,
      '--out',
      out,
      '--trials',
      '2',
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toContain('pass rate 95.0% → 65.0%: 7 regression(s), 1 improvement(s)');
    expect(outcome.stderr).toContain('support-desk [40/40] ');
    expect(outcome.stderr.split('\n').at(-2)).toBe(
      'affordance-eval: 7 case(s) regressed against the baseline: locked-out, login-loop, refund-old-order, api-500, sso-broken, slow-search, angry-outage.',
    );
    const comparison = JSON.parse(
      readFileSync(join(out, 'comparison.json'), 'utf8'),
    ) as EvalComparison;
    expect(comparison.improvements).toEqual(['double-charge']);
    // The HTML report shows the comparison too.
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain(
      '<span id="regression-count">7</span>',
    );
    expect(
      (JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as EvalReport).config.trials,
    ).toBe(2);
  }, 60_000);

  it('exits 0 on regressions with --no-fail-on-regression, and 1 below --min-pass', async () => {
    const tolerant = await affordanceEval(
      'run',
      hasty,
      '--baseline',
      baseline,
      '--no-fail-on-regression',
      '--out',
      join(dir, 'tolerant'),
    );
    expect(tolerant.code).toBe(0);
    expect(tolerant.stdout).toContain('7 regression(s)');
    const strict = await affordanceEval(
      'run',
      hasty,
      '--min-pass',
      '0.9',
      '--out',
      join(dir, 'strict'),
    );
    expect(strict.code).toBe(1);
    expect(strict.stderr.split('\n').at(-2)).toBe(
      'affordance-eval: 65.0% of the cases passed, below --min-pass 0.9.',
    );
  }, 60_000);

  it.each([
    [
      ['run', careful, '--min-pass', '2'],
      'affordance-eval --min-pass: "2" is not a rate between 0 and 1.',
    ],
    [
      ['run', careful, '--trials', '0'],
      'affordance-eval --trials: "0" is not a whole number >= 1.',
    ],
    [
      ['run', careful, '--frobnicate'],
      'affordance-eval --frobnicate: "--frobnicate" is not an option of affordance-eval run.',
    ],
    [['run', careful, '--out'], 'affordance-eval --out: the option has no value.'],
    [['run'], 'affordance-eval run: no suite module was given.'],
    [['check', careful], 'affordance-eval: unknown command "check".'],
    [
      ['run', join(dir, 'missing.js')],
      `affordance-eval suite module ${join(dir, 'missing.js')}: could not be loaded`,
    ],
    [
      ['run', join(root, '.build/examples/evals/prompt-following-model.js')],
      'has no eval suite as its default export.',
    ],
    [
      ['run', careful, '--baseline', join(dir, 'none.json')],
      `Eval report ${join(dir, 'none.json')}: cannot be read`,
    ],
  ])(
    'exits 2 on a usage error: %j',
    async (args, message) => {
      const outcome = await affordanceEval(...args);
      expect(outcome.code).toBe(2);
      expect(outcome.stdout).toBe('');
      expect(outcome.stderr).toContain(message);
      expect(outcome.stderr).toContain('Fix:');
      expect(existsSync(join(root, 'eval-results'))).toBe(false);
    },
    60_000,
  );

  it('prints its usage with --help', async () => {
    const outcome = await affordanceEval('--help');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/^Usage: affordance-eval run <suite-module> \[options\]/);
  }, 60_000);
});
