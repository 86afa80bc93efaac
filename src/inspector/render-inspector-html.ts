import { contentSecurityPolicy, escapeHtml, scriptNonce } from './html/escape-html.js';
import { INSPECTOR_SCRIPT, INSPECTOR_STYLE } from './html/inspector-page-assets.js';
import { timelineEntry, usageText } from './html/timeline-entry.js';
import type { SessionExport } from './session-export.js';

/** Options of {@link renderInspectorHtml}. */
export interface InspectorHtmlOptions {
  /** The page's title; `Session <id>` (or `N sessions`) by default. */
  readonly title?: string | undefined;
}

/**
 * One or more session exports as a self-contained HTML page (inline CSS and a
 * few lines of script, nothing loaded): each session's evaluations, then its
 * timeline (rendered prompts, tool calls with their arguments, results,
 * outcomes, durations and rollbacks, approvals, guardrail and governor
 * decisions, answers with their usage), filterable by tool and outcome and
 * searchable. Every text from the export is escaped.
 */
export function renderInspectorHtml(
  exports: SessionExport | readonly SessionExport[],
  options: InspectorHtmlOptions = {},
): string {
  const sessions: readonly SessionExport[] = Array.isArray(exports)
    ? exports
    : [exports as SessionExport];
  const title =
    options.title ??
    (sessions.length === 1
      ? `Session ${sessions[0]?.sessionId ?? ''}`
      : `${sessions.length} sessions`);
  const nonce = scriptNonce();
  const events = sessions.flatMap((session) => session.events);
  const tools = [
    ...new Set(
      events.flatMap((event) =>
        event.kind === 'tool-call' || event.kind === 'approval' ? [event.tool] : [],
      ),
    ),
  ].sort();
  const outcomes = [
    ...new Set(
      events.flatMap((event) =>
        event.kind === 'tool-call'
          ? [event.outcome]
          : event.kind === 'approval'
            ? [event.decision]
            : [],
      ),
    ),
  ].sort();
  const option = (value: string) =>
    `<option value="${escapeHtml(value)}">${escapeHtml(value)}</option>`;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    contentSecurityPolicy(nonce) +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>` +
    `<style>${INSPECTOR_STYLE}</style></head><body>` +
    `<h1>${escapeHtml(title)}</h1>` +
    '<div class="filters">' +
    `<label>Tool <select id="filter-tool"><option value="">all</option>${tools.map(option).join('')}</select></label>` +
    `<label>Outcome <select id="filter-outcome"><option value="">all</option>${outcomes.map(option).join('')}</select></label>` +
    '<label>Search <input type="search" id="search" placeholder="tool, argument, text…"></label>' +
    `<span class="muted"><span id="shown-count">${events.length}</span> of ${events.length} entries shown</span>` +
    '</div>' +
    sessions.map(sessionSection).join('') +
    `<script nonce="${nonce}">${INSPECTOR_SCRIPT}</script></body></html>`
  );
}

function sessionSection(session: SessionExport): string {
  const start = Date.parse(session.createdAt);
  const first = session.events[0] === undefined ? start : Date.parse(session.events[0].at);
  const origin = Number.isFinite(first) ? first : start;
  const evaluations = session.evaluations
    .map(
      (evaluation) =>
        `<tr><td><code>${escapeHtml(evaluation.promptName)}</code></td><td>${escapeHtml(evaluation.status)}</td><td>${evaluation.toolCalls} (${evaluation.failedCalls} failed)</td><td>${escapeHtml(usageText(evaluation.usage))}</td><td>${evaluation.durationMs === null ? '' : `${Math.round(evaluation.durationMs)} ms`}</td><td class="muted">${escapeHtml(evaluation.evaluationId ?? '')}</td></tr>`,
    )
    .join('');
  const tags = Object.entries(session.tags)
    .filter(([key]) => key !== 'sessionId')
    .map(([key, value]) => `${key}=${value}`)
    .join(', ');
  return (
    `<section class="session" data-session="${escapeHtml(session.sessionId)}">` +
    `<h2>Session <code>${escapeHtml(session.sessionId)}</code></h2>` +
    `<p class="muted">Started ${escapeHtml(session.createdAt)}${tags === '' ? '' : `; ${escapeHtml(tags)}`}</p>` +
    '<table class="evaluations"><thead><tr><th>Prompt</th><th>Status</th><th>Tool calls</th><th>Usage</th><th>Duration</th><th>Evaluation</th></tr></thead>' +
    `<tbody>${evaluations}</tbody></table>` +
    `<ol class="timeline">${session.events.map((event) => timelineEntry(event, origin)).join('')}</ol>` +
    `<details class="not-recorded"><summary>Not recorded by sessions</summary><ul>${session.notRecorded.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul></details>` +
    '</section>'
  );
}
