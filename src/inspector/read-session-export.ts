import { ConfigurationError } from 'affordance';

import { SESSION_EXPORT_FORMAT, type SessionExport } from './session-export.js';

/**
 * The session exports in `text` (the JSON of one {@link SessionExport} or of
 * a list of them), checked for their format and version; `source` names where
 * the text came from in the error.
 *
 * @throws ConfigurationError when the text is not JSON or not a version 1 export.
 */
export function readSessionExports(text: string, source: string): SessionExport[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigurationError({
      subject: source,
      problem: `is not JSON (${error instanceof Error ? error.message : String(error)}).`,
      fix: 'Write the file with JSON.stringify(exportSession(session)).',
      cause: error,
    });
  }
  const list: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
  return list.map((item, index) => {
    const where = Array.isArray(parsed) ? `${source}, item ${index}` : source;
    const record = item as Partial<SessionExport> | null;
    if (typeof record !== 'object' || record?.format !== SESSION_EXPORT_FORMAT) {
      throw new ConfigurationError({
        subject: where,
        problem: `is not a session export (its "format" is not ${JSON.stringify(SESSION_EXPORT_FORMAT)}).`,
        fix: 'Write it with JSON.stringify(exportSession(session)) from affordance/inspector.',
      });
    }
    if (record.version !== 1) {
      throw new ConfigurationError({
        subject: where,
        problem: `is a session export of version ${JSON.stringify(record.version)}; this inspector reads version 1.`,
        fix: 'Open it with the affordance version that wrote it, or export the session again.',
      });
    }
    if (
      typeof record.sessionId !== 'string' ||
      !Array.isArray(record.events) ||
      !Array.isArray(record.evaluations)
    ) {
      throw new ConfigurationError({
        subject: where,
        problem: 'lacks its sessionId, events or evaluations.',
        fix: 'Export the session again: the file was cut or edited.',
      });
    }
    return record as SessionExport;
  });
}
