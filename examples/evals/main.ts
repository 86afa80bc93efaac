import 'reflect-metadata';

import { join } from 'node:path';

import {
  compareEvalReports,
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
 * `<out>/careful/report.json`; with `--worse`, also on the deliberately worse
 * prompt, writes `<out>/hasty/report.json`, prints the regressions against the
 * careful run and returns exit code 1 when there are any.
 */
export async function run(
  print: (line: string) => void = console.log,
  args: readonly string[] = process.argv.slice(2),
  out = join('.build', 'eval-results'),
): Promise<EvalExampleRun> {
  const baseline = await runEvalSuite(careful, { concurrency: 4 });
  print(formatEvalReport(baseline));
  print(`wrote ${await writeEvalReport(baseline, join(out, 'careful'))}`);
  if (!args.includes('--worse'))
    return { baseline, current: undefined, comparison: undefined, exitCode: 0 };

  print('');
  print('Now with the hasty prompt:');
  const current = await runEvalSuite(hasty, { concurrency: 4 });
  print(formatEvalReport(current));
  print(`wrote ${await writeEvalReport(current, join(out, 'hasty'))}`);
  const comparison = compareEvalReports(baseline, current);
  print(formatEvalComparison(comparison));
  return { baseline, current, comparison, exitCode: comparison.regressions.length > 0 ? 1 : 0 };
}

if (
  process.argv[1] !== undefined &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
) {
  process.exitCode = (await run()).exitCode;
}
