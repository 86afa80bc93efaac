import {
  ConfigurationError,
  GuardrailChecked,
  LoopIntervention,
  PromptExecuted,
  PromptRendered,
  Session,
  ToolInvoked,
} from 'affordance';

import { buildSessionExport, type ExportedApprovalInput } from './build-session-export.js';
import type { EventRecord, RecordKind } from './event-record.js';
import { toExportJson } from './export-json.js';
import type { SessionExport } from './session-export.js';

/** Options of {@link exportSession} and {@link exportStoredSession}. */
export interface ExportSessionOptions {
  /**
   * The approval pauses of the session's evaluations (each interrupted
   * response's `interruption.pending`, with the decisions passed to
   * `runtime.resume`): the session does not record a pause, so without them
   * an approved call shows as an ordinary call and a rejected one as denied.
   */
  readonly approvals?: readonly ExportedApprovalInput[] | undefined;
}

/** The event classes an export reads, by kind. */
const EVENT_CLASSES: readonly (readonly [RecordKind, abstract new (...args: never[]) => object])[] =
  [
    ['PromptRendered', PromptRendered],
    ['GuardrailChecked', GuardrailChecked],
    ['ToolInvoked', ToolInvoked],
    ['LoopIntervention', LoopIntervention],
    ['PromptExecuted', PromptExecuted],
  ];

/**
 * The session's records as versioned plain JSON ({@link SessionExport}), in
 * time order: each evaluation's rendered prompt, its tool calls (arguments,
 * result, outcome, duration, rollback, who denied it), guardrail decisions,
 * loop interventions and answers with their usage; approval pauses when
 * `options.approvals` gives them. `JSON.stringify` it to a file the
 * inspector page and `affordance-inspect` open.
 *
 * @example writeFileSync('session.json', JSON.stringify(exportSession(session)))
 */
export function exportSession(session: Session, options: ExportSessionOptions = {}): SessionExport {
  if (!((session as unknown) instanceof Session)) {
    throw new ConfigurationError({
      subject: 'exportSession',
      problem: `expected a Session, got ${describe(session)}.`,
      fix: 'Pass the session the evaluations recorded in (options.session of evaluate, or interruption.session).',
    });
  }
  const records: EventRecord[] = [];
  for (const [kind, type] of EVENT_CLASSES) {
    session
      .slice(type)
      .all()
      .forEach((event, index) => {
        records.push({ kind, fields: toExportJson(event) as Record<string, unknown>, index });
      });
  }
  return buildSessionExport(
    {
      sessionId: session.sessionId,
      createdAt: session.createdAt.toISOString(),
      tags: session.tags,
    },
    records,
    options.approvals ?? [],
  );
}

function describe(value: unknown): string {
  return value === null ? 'null' : typeof value;
}
