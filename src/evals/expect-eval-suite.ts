import { ConfigurationError } from '../index.js';
import type { EvalReport } from './eval-report.js';
import type { EvalSuite } from './eval-suite.js';
import { formatEvalReport, percent } from './format-eval-report.js';
import { runEvalSuite, type RunEvalSuiteOptions } from './run-eval-suite.js';

/** Options of {@link expectEvalSuite}: the run's, and the pass rate to reach. */
export interface ExpectEvalSuiteOptions extends RunEvalSuiteOptions {
  /** The share of cases (pass@k) that must pass, 0..1; 1 (every case) by default. */
  readonly minPassRate?: number;
}

/**
 * Runs `suite` and throws an `Error` whose message is the table of failed
 * cases (each failed scorer with its reason) when fewer than `minPassRate`
 * of the cases pass; returns the report otherwise. For a test runner (no
 * dependency on one): `await expectEvalSuite(suite, { runtime, minPassRate: 0.9 })`
 * inside a jest, vitest or node:test test.
 *
 * @example
 * it('keeps the support desk at 90%', async () => {
 *   await expectEvalSuite(supportSuite, { minPassRate: 0.9, trials: 2 });
 * });
 */
export async function expectEvalSuite(
  suite: EvalSuite,
  options: ExpectEvalSuiteOptions = {},
): Promise<EvalReport> {
  const minPassRate = options.minPassRate ?? 1;
  if (!(minPassRate >= 0 && minPassRate <= 1)) {
    throw new ConfigurationError({
      subject: 'expectEvalSuite minPassRate',
      problem: `must be between 0 and 1, got ${String(options.minPassRate)}.`,
      fix: 'Pass the share of cases that must pass, e.g. minPassRate: 0.9.',
    });
  }
  const report = await runEvalSuite(suite, { progress: false, ...options });
  if (report.summary.passRate < minPassRate) {
    throw new Error(
      `Eval suite '${suite.name}' passed ${percent(report.summary.passRate)} of its cases, ` +
        `below the ${percent(minPassRate)} required.\n\n${formatEvalReport(report)}`,
    );
  }
  return report;
}

/**
 * Registers one test that runs `suite` with {@link expectEvalSuite}: pass your
 * runner's `test` (or `it`), e.g. `evalSuiteTest(it, supportSuite, { minPassRate: 0.9 })`.
 */
export function evalSuiteTest(
  test: (name: string, run: () => Promise<void>) => unknown,
  suite: EvalSuite,
  options: ExpectEvalSuiteOptions = {},
): void {
  const required = percent(options.minPassRate ?? 1);
  test(`eval suite ${suite.name} passes at least ${required} of its cases`, async () => {
    await expectEvalSuite(suite, options);
  });
}
