import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { ConfigurationError } from '../index.js';
import type { EvalComparison, EvalReport } from './eval-report.js';
import { renderEvalReportHtml } from './render-eval-report-html.js';
import { sessionPageOf } from './write-trial-session.js';

/** The file name of the JSON report in its directory. */
export const EVAL_REPORT_FILE = 'report.json';

/** The file name of the HTML report in its directory. */
export const EVAL_REPORT_HTML_FILE = 'report.html';

/** Options of {@link writeEvalReport}. */
export interface WriteEvalReportOptions {
  /** The report compared with a baseline (`compareEvalReports`): the HTML report highlights the changes. */
  readonly comparison?: EvalComparison | undefined;
  /** The HTML page's title; `Eval report: <suite>` by default. */
  readonly title?: string | undefined;
}

/**
 * Writes `report` into `dir` (created if needed) as `report.json` (indented
 * JSON) and `report.html` (`renderEvalReportHtml`, with `options.comparison`
 * when given). Returns the path of `report.json`; `report.html` lies beside it.
 *
 * A trial with a `sessionFile` (the run got `reportDir: dir`) links, in the
 * HTML report, to its session's inspector page `sessions/<caseId>-<trial>.html`,
 * which opens offline (when the page is in `dir`). Without one, a trial
 * keeps only its `sessionId` (the key of its session in the `sessions`
 * option of `runEvalSuite`).
 */
export async function writeEvalReport(
  report: EvalReport,
  dir: string,
  options: WriteEvalReportOptions = {},
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, EVAL_REPORT_FILE);
  await writeFile(path, `${JSON.stringify(report, null, 2)}\n`, 'utf8');
  const pages = await sessionPages(report, dir);
  const html = renderEvalReportHtml(report, {
    comparison: options.comparison,
    title: options.title,
    inspectorHref: (caseId, trial) => pages.get(`${caseId}\n${trial}`),
  });
  await writeFile(join(dir, EVAL_REPORT_HTML_FILE), html, 'utf8');
  return path;
}

/**
 * Each trial's session page by `caseId\ntrial`, when it lies in `dir` (a
 * report written elsewhere than the run's `reportDir` links to none rather
 * than to missing pages).
 */
async function sessionPages(report: EvalReport, dir: string): Promise<Map<string, string>> {
  const found = await Promise.all(
    report.cases.flatMap((entry) =>
      entry.trials.map(async (trial): Promise<[string, string] | undefined> => {
        if (trial.sessionFile === undefined) return undefined;
        const page = sessionPageOf(trial.sessionFile);
        const present = await access(join(dir, page)).then(
          () => true,
          () => false,
        );
        return present ? [`${entry.id}\n${trial.trial}`, page] : undefined;
      }),
    ),
  );
  return new Map(found.filter((pair) => pair !== undefined));
}

/**
 * Reads an eval report written by {@link writeEvalReport} (a `report.json`
 * path, or the directory holding one).
 * @throws ConfigurationError naming the file when it is missing, not JSON, or not an `EvalReport` of schema version 1.
 */
export async function readEvalReport(path: string): Promise<EvalReport> {
  const file = path.endsWith('.json') ? path : join(path, EVAL_REPORT_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigurationError({
      subject: `Eval report ${file}`,
      problem: `cannot be read (${error instanceof Error ? error.message : String(error)}).`,
      fix: 'Pass the report.json of an earlier run (its --out directory).',
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigurationError({
      subject: `Eval report ${file}`,
      problem: `is not JSON (${error instanceof Error ? error.message : String(error)}).`,
      fix: 'Pass the report.json written by writeEvalReport or affordance-eval.',
    });
  }
  const report = parsed as Partial<EvalReport> | null;
  if (report === null || typeof report !== 'object' || report.schemaVersion !== 1) {
    throw new ConfigurationError({
      subject: `Eval report ${file}`,
      problem: 'is not an eval report of schema version 1.',
      fix: 'Pass the report.json written by writeEvalReport or affordance-eval.',
    });
  }
  return report as EvalReport;
}
