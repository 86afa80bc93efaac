import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { ConfigurationError } from '../index.js';
import type { EvalReport } from './eval-report.js';

/** The file name of the JSON report in its directory. */
export const EVAL_REPORT_FILE = 'report.json';

/**
 * Writes `report` as `report.json` (indented JSON) into `dir`, creating the
 * directory. Returns the file's path.
 *
 * Each trial keeps its `sessionId` (the key of its session in the `sessions`
 * option of `runEvalSuite`); `sessionFile` stays unset.
 */
export async function writeEvalReport(report: EvalReport, dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, EVAL_REPORT_FILE);
  await writeFile(path, `${JSON.stringify(report, null, 2)}\n`, 'utf8');
  return path;
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
