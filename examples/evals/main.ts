import 'reflect-metadata';

import { join } from 'node:path';

import {
  compareEvalReports,
  EVAL_REPORT_HTML_FILE,
  type EvalComparison,
  type EvalReport,
  formatEvalComparison,
  formatEvalReport,
  runEvalSuite,
  writeEvalReport,
} from 'affordance/evals';

import careful from './careful.suite.js';
import hasty from './hasty.suite.js';

/** What {@link run} did. */
export interface EvalExampleRun {
  readonly baseline: EvalReport;
  readonly current: EvalReport | undefined;
  readonly comparison: EvalComparison | undefined;
  /** 1 when the worse prompt regressed against the baseline, else 0. */
  readonly exitCode: number;
}

/**
 * Runs the support-desk suite offline on its prompt and writes
 * `<out>/careful/report.json`, `report.html` and each trial's session under
 * `sessions/`; with `--worse`, also on the deliberately worse prompt, writes
 * the same into `<out>/hasty/` (its HTML report compared with the careful
 * run), prints the regressions and returns exit code 1 when there are any.
 */
export async function run(
  print: (line: string) => void = console.log,
  args: readonly string[] = process.argv.slice(2),
  out = join('.build', 'eval-results'),
): Promise<EvalExampleRun> {
  const carefulDir = join(out, 'careful');
  const baseline = await runEvalSuite(careful, { concurrency: 4, reportDir: carefulDir });
  print(formatEvalReport(baseline));
  print(`wrote ${await writeEvalReport(baseline, carefulDir)}`);
  print(`wrote ${join(carefulDir, EVAL_REPORT_HTML_FILE)} (open it in a browser)`);
  if (!args.includes('--worse'))
    return { baseline, current: undefined, comparison: undefined, exitCode: 0 };

  print('');
  print('Now with the hasty prompt:');
  const hastyDir = join(out, 'hasty');
  const current = await runEvalSuite(hasty, { concurrency: 4, reportDir: hastyDir });
  print(formatEvalReport(current));
  const comparison = compareEvalReports(baseline, current);
  print(`wrote ${await writeEvalReport(current, hastyDir, { comparison })}`);
  print(`wrote ${join(hastyDir, EVAL_REPORT_HTML_FILE)} (open it in a browser)`);
  print(formatEvalComparison(comparison));
  return { baseline, current, comparison, exitCode: comparison.regressions.length > 0 ? 1 : 0 };
}

if (
  process.argv[1] !== undefined &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
) {
  process.exitCode = (await run()).exitCode;
}
