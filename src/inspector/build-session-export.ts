import type { ApprovalDecision, PendingToolCall } from 'affordance';

import type { EventRecord } from './event-record.js';
import { toExportJson } from './export-json.js';
import { recordToEvent, sameUsage, usageDelta } from './record-to-event.js';
import {
  type ExportedApproval,
  type ExportedEvaluation,
  type ExportedEvent,
  type ExportedUsage,
  SESSION_EXPORT_FORMAT,
  type SessionExport,
} from './session-export.js';

/** The calls of one approval pause and the decisions given for them. */
export interface ExportedApprovalInput {
  /** The calls that waited (`response.interruption.pending`). */
  readonly pending: readonly PendingToolCall[];
  /** The decisions passed to `runtime.resume`, if it was resumed. */
  readonly decisions?: readonly ApprovalDecision[] | undefined;
}

/** What sessions do not record, so no export can show it. */
export const NOT_RECORDED: readonly string[] = Object.freeze([
  "Provider requests and turns: the messages sent, the model's text between tool calls and each turn's finish reason are not session records (a recording adapter or the runtime's telemetry hooks see them).",
  'Approval pauses: a call waiting for approval leaves no record until it runs or is rejected; pass the pending calls and the decisions as the approvals option to show them.',
  'What a failed handler threw, beyond the message the model read (ToolInvoked.thrownBy is kept in the process only).',
  'Turn numbers: calls are grouped into turns by the usage they carry, so turns without reported usage cannot be told apart.',
]);

/** Where a record sorts among records of the same millisecond. */
function rank(record: EventRecord): number {
  switch (record.kind) {
    case 'PromptRendered':
      return 0;
    case 'GuardrailChecked':
      return record.fields['stage'] === 'answer' ? 4 : 1;
    case 'ToolInvoked':
      return 2;
    case 'LoopIntervention':
      return 3;
    case 'PromptExecuted':
      return 5;
  }
}

/** The session's identity as an export states it. */
export interface ExportedIdentity {
  readonly sessionId: string;
  readonly createdAt: string;
  readonly tags: Readonly<Record<string, string>>;
}

/**
 * The export of a session's records: sorted by time (records of one
 * millisecond in the order an evaluation makes them, each slice's own order
 * kept), approval entries placed before their calls, each turn's usage
 * worked out from the cumulative usage the records carry. @internal
 */
export function buildSessionExport(
  identity: ExportedIdentity,
  records: readonly EventRecord[],
  approvals: readonly ExportedApprovalInput[],
): SessionExport {
  const sorted = [...records].sort(
    (a, b) =>
      String(a.fields['createdAt']).localeCompare(String(b.fields['createdAt'])) ||
      rank(a) - rank(b) ||
      a.index - b.index,
  );
  const events: ExportedEvent[] = sorted.map((record, seq) => recordToEvent(record, seq));
  const withApprovals = placeApprovals(events, approvals);
  const timeline = withTurnUsage(withApprovals).map((event, seq) => ({ ...event, seq }));
  return {
    format: SESSION_EXPORT_FORMAT,
    version: 1,
    sessionId: identity.sessionId,
    createdAt: identity.createdAt,
    exportedAt: new Date().toISOString(),
    tags: { ...identity.tags },
    evaluations: evaluationsOf(timeline),
    events: timeline,
    notRecorded: NOT_RECORDED,
  };
}

/** `events` with one approval entry per pending call, before the record of that call (at the end when none). */
function placeApprovals(
  events: readonly ExportedEvent[],
  approvals: readonly ExportedApprovalInput[],
): ExportedEvent[] {
  const entries = new Map<string, ExportedApproval>();
  for (const pause of approvals) {
    for (const call of pause.pending) {
      const decision = pause.decisions?.find((item) => item.callId === call.callId);
      entries.set(call.callId, {
        seq: 0,
        at: new Date().toISOString(),
        evaluationId: null,
        promptName: '',
        adapter: '',
        kind: 'approval',
        callId: call.callId,
        tool: call.name,
        arguments: toExportJson(call.arguments),
        reason: call.reason,
        decision: decision === undefined ? 'pending' : decision.approved ? 'approved' : 'rejected',
        message: decision?.message ?? null,
      });
    }
  }
  const placed: ExportedEvent[] = [];
  for (const event of events) {
    const approval =
      event.kind === 'tool-call' && event.callId !== null ? entries.get(event.callId) : undefined;
    if (approval !== undefined && event.kind === 'tool-call') {
      placed.push({
        ...approval,
        at: event.at,
        evaluationId: event.evaluationId,
        promptName: event.promptName,
        adapter: event.adapter,
      });
      entries.delete(approval.callId);
    }
    placed.push(event);
  }
  return [...placed, ...entries.values()];
}

/** Fills in `turnUsage`: the growth of each evaluation's cumulative usage. */
function withTurnUsage(events: readonly ExportedEvent[]): ExportedEvent[] {
  const last = new Map<string | null, ExportedUsage | null>();
  return events.map((event) => {
    if (event.kind !== 'tool-call' && event.kind !== 'answer') return event;
    const cumulative = event.kind === 'tool-call' ? event.usageSoFar : event.usage;
    const before = last.has(event.evaluationId) ? (last.get(event.evaluationId) ?? null) : null;
    const seen = last.has(event.evaluationId);
    last.set(event.evaluationId, cumulative);
    if (cumulative === null || (seen && sameUsage(cumulative, before))) return event;
    return { ...event, turnUsage: usageDelta(cumulative, before) };
  });
}

function evaluationsOf(events: readonly ExportedEvent[]): ExportedEvaluation[] {
  const byId = new Map<string | null, ExportedEvent[]>();
  for (const event of events) {
    if (event.kind === 'approval' && event.evaluationId === null) continue;
    const list = byId.get(event.evaluationId) ?? [];
    list.push(event);
    byId.set(event.evaluationId, list);
  }
  return [...byId].map(([evaluationId, list]) => {
    const first = list[0] as ExportedEvent;
    const answer = list.find((event) => event.kind === 'answer');
    const calls = list.filter((event) => event.kind === 'tool-call');
    return {
      evaluationId,
      promptName: first.promptName,
      adapter: first.adapter,
      startedAt: first.at,
      endedAt: (list.at(-1) as ExportedEvent).at,
      status: answer === undefined ? 'unfinished' : 'answered',
      toolCalls: calls.length,
      failedCalls: calls.filter((call) => call.outcome !== 'success').length,
      usage: answer?.kind === 'answer' ? answer.usage : null,
      durationMs: answer?.kind === 'answer' ? answer.durationMs : null,
    };
  });
}
