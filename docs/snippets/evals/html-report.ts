// #region html-report
import { join } from 'node:path';

import {
  compareEvalReports,
  type EvalReport,
  readEvalReport,
  runEvalSuite,
  writeEvalReport,
} from 'affordance/evals';

import { refundSuite } from './suite.js';

export async function evaluateWithPages(outDir: string, baselineDir?: string): Promise<EvalReport> {
  const report = await runEvalSuite(refundSuite, {
    reportDir: outDir, // each trial's session goes to <outDir>/sessions/ as soon as it is scored
  });
  const comparison =
    baselineDir === undefined
      ? undefined
      : compareEvalReports(await readEvalReport(baselineDir), report);
  await writeEvalReport(report, outDir, { comparison }); // report.json and report.html
  return report; // each trial's sessionFile: 'sessions/<caseId>-<trial>.json'
}
// #endregion html-report

export const htmlReportFile = (outDir: string): string => join(outDir, 'report.html');
