import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { PromptResponse, Session } from '../index.js';
import { exportSession, renderInspectorHtml } from '../inspector/index.js';

/** The folder, inside a report's directory, that holds the trials' session exports. */
export const EVAL_SESSIONS_DIR = 'sessions';

/**
 * The path of a trial's session export relative to the report's directory:
 * `sessions/<caseId>-<trial>.json` (a case id is a safe file name, see
 * `EVAL_CASE_ID_PATTERN`). Its inspector page has the same name ending in `.html`.
 * @internal
 */
export function trialSessionFile(caseId: string, trial: number): string {
  return `${EVAL_SESSIONS_DIR}/${caseId}-${trial}.json`;
}

/** The inspector page of a session export written beside it (`.json` becomes `.html`). @internal */
export function sessionPageOf(sessionFile: string): string {
  return sessionFile.replace(/\.json$/, '.html');
}

/** What {@link writeTrialSession} writes. @internal */
export interface TrialSessionToWrite {
  readonly reportDir: string;
  readonly suite: string;
  readonly caseId: string;
  readonly trial: number;
  readonly session: Session;
  /** The trial's response: a paused one's pending calls show as approvals. */
  readonly response: PromptResponse | undefined;
}

/**
 * Exports the trial's session (`exportSession` of `affordance/inspector`) into
 * the report's directory as `sessions/<caseId>-<trial>.json`, and its
 * inspector page (`renderInspectorHtml`) beside it as `.html`, so the HTML
 * report links to a page that opens offline. Returns the export's path
 * relative to the report's directory (the trial's `sessionFile`). @internal
 */
export async function writeTrialSession(what: TrialSessionToWrite): Promise<string> {
  const { reportDir, caseId, trial, response } = what;
  const file = trialSessionFile(caseId, trial);
  const approvals =
    response?.status === 'interrupted' ? [{ pending: response.interruption.pending }] : [];
  const exported = exportSession(what.session, { approvals });
  await mkdir(join(reportDir, EVAL_SESSIONS_DIR), { recursive: true });
  await writeFile(join(reportDir, file), `${JSON.stringify(exported)}\n`, 'utf8');
  const title = `${what.suite}: ${caseId}, trial ${trial}`;
  await writeFile(
    join(reportDir, sessionPageOf(file)),
    renderInspectorHtml(exported, { title }),
    'utf8',
  );
  return file;
}
