import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { type EvalComparison, type EvalReport, renderEvalReportHtml } from 'affordance/evals';

// #region report
/** Writes the run's HTML report, compared with the baseline, each trial linked to its session's page. */
export async function writeHtmlReport(
  report: EvalReport,
  comparison: EvalComparison | undefined,
  file: string,
  inspectorUrl: string, // where affordance-inspect serves the run's session exports
) {
  const html = renderEvalReportHtml(report, {
    comparison,
    inspectorHref: (caseId, trial) => {
      const sessionFile = report.cases
        .find((entry) => entry.id === caseId)
        ?.trials.find((item) => item.trial === trial)?.sessionFile;
      return sessionFile === undefined
        ? undefined
        : `${inspectorUrl}/sessions/${encodeURIComponent(basename(sessionFile, '.json'))}`;
    },
  });
  await writeFile(file, html);
}
// #endregion report
