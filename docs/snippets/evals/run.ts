// #region run
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import {
  compareEvalReports,
  type EvalReport,
  formatEvalReport,
  runEvalSuite,
  writeEvalReport,
} from 'affordance/evals';

import { refundSuite } from './suite.js';

/** What `onProgress` saw, e.g. `['1/6', '2/6', ...]`. */
export const progressSeen: string[] = [];

export async function evaluateRefunds(outDir: string, baselineFile?: string) {
  const report = await runEvalSuite(refundSuite, {
    trials: 3, // pass@3: a case passes when one of its three trials does
    concurrency: 8,
    deadlineMs: 30_000, // per trial
    sessions: new Map(), // or a SessionPersistence of affordance/durable
    onProgress: (progress) => progressSeen.push(`${progress.done}/${progress.total}`),
  });
  console.log(formatEvalReport(report)); // the pass rate, then each failed case and why
  await writeEvalReport(report, outDir); // <outDir>/report.json
  if (baselineFile === undefined) return { report, comparison: undefined };
  const baseline = JSON.parse(await readFile(baselineFile, 'utf8')) as EvalReport;
  const comparison = compareEvalReports(baseline, report);
  return { report, comparison }; // comparison.regressions: passed before, fail now
}
// #endregion run

export const reportFile = (outDir: string): string => join(outDir, 'report.json');
