import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { ConfigurationError } from '../../index.js';
import { compareEvalReports } from '../compare-eval-reports.js';
import type { EvalComparison, EvalReport } from '../eval-report.js';
import type { EvalProgressStream } from '../eval-progress.js';
import type { EvalSuite } from '../eval-suite.js';
import { formatEvalComparison, formatEvalReport, percent } from '../format-eval-report.js';
import { runEvalSuite } from '../run-eval-suite.js';
import { EVAL_REPORT_HTML_FILE, readEvalReport, writeEvalReport } from '../write-eval-report.js';
import { evalCliUsage, parseEvalArgs, type EvalCliRequest } from './parse-eval-args.js';

/** Where {@link runEvalCli} writes. */
export interface EvalCliIo {
  /** Writes one line of normal output. */
  readonly out: (line: string) => void;
  /** Writes one line of error output. */
  readonly err: (line: string) => void;
  /** Where the progress goes (a terminal gets a bar); none when omitted. */
  readonly progress?: EvalProgressStream;
}

/**
 * The `affordance-eval` command: parses `args` (what follows the command
 * name), loads the suite module, runs it, writes the report and compares it
 * with the baseline. Returns the exit code: 0 passed, 1 the pass rate is below
 * `--min-pass` or there are regressions (with `--fail-on-regression`), 2 bad
 * arguments, a suite module or baseline that cannot be loaded, or a suite the
 * runner refuses.
 */
export async function runEvalCli(args: readonly string[], io: EvalCliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(evalCliUsage);
    return 0;
  }
  let request: EvalCliRequest;
  let suite: EvalSuite;
  let baseline: EvalReport | undefined;
  try {
    request = parseEvalArgs(args);
    suite = await loadSuite(request.suiteModule);
    baseline = request.baseline === undefined ? undefined : await readEvalReport(request.baseline);
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 2;
  }
  let report: EvalReport;
  try {
    report = await runEvalSuite(suite, {
      trials: request.trials,
      concurrency: request.concurrency,
      deadlineMs: request.deadlineMs,
      reportDir: request.out,
      progress: io.progress ?? false,
      ...(request.tags === undefined ? {} : { tags: request.tags }),
    });
  } catch (error) {
    io.err(`affordance-eval: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const comparison = baseline === undefined ? undefined : compareEvalReports(baseline, report);
  const written = await writeReports(report, request.out, comparison);
  io.out(formatEvalReport(report));
  if (comparison !== undefined) io.out(formatEvalComparison(comparison));
  for (const file of written) io.out(`wrote ${file}`);
  let code = 0;
  if (report.summary.passRate < request.minPass) {
    io.err(
      `affordance-eval: ${percent(report.summary.passRate)} of the cases passed, below --min-pass ${request.minPass}.`,
    );
    code = 1;
  }
  if (comparison !== undefined && comparison.regressions.length > 0 && request.failOnRegression) {
    io.err(
      `affordance-eval: ${comparison.regressions.length} case(s) regressed against the baseline: ` +
        `${comparison.regressions.map((regression) => regression.id).join(', ')}.`,
    );
    code = 1;
  }
  return code;
}

/** Writes the report files into `dir` and returns their paths. */
async function writeReports(
  report: EvalReport,
  dir: string,
  comparison: EvalComparison | undefined,
): Promise<string[]> {
  const files = [
    await writeEvalReport(report, dir, { comparison }),
    join(dir, EVAL_REPORT_HTML_FILE),
  ];
  if (comparison !== undefined) {
    const path = join(dir, 'comparison.json');
    await writeFile(path, `${JSON.stringify(comparison, null, 2)}\n`, 'utf8');
    files.push(path);
  }
  return files;
}

/** Imports the module and checks that its default export is a suite. */
async function loadSuite(path: string): Promise<EvalSuite> {
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(resolve(path)).href)) as { default?: unknown };
  } catch (error) {
    throw new ConfigurationError({
      subject: `affordance-eval suite module ${path}`,
      problem: `could not be loaded (${error instanceof Error ? error.message : String(error)}).`,
      fix: 'pass the path of a compiled .js module (e.g. dist/evals/support.suite.js).',
      cause: error,
    });
  }
  const suite = loaded.default as Partial<EvalSuite> | null | undefined;
  if (
    typeof suite !== 'object' ||
    suite === null ||
    typeof suite.name !== 'string' ||
    !Array.isArray(suite.cases)
  ) {
    throw new ConfigurationError({
      subject: `affordance-eval suite module ${path}`,
      problem: 'has no eval suite as its default export.',
      fix: 'export default defineEvalSuite({ name, prompt, runtime, cases }) from it.',
    });
  }
  return suite as EvalSuite;
}
