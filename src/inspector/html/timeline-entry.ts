import type {
  ExportedAnswer,
  ExportedEvent,
  ExportedToolCall,
  ExportedUsage,
} from '../session-export.js';
import { escapeHtml, prettyJson } from './escape-html.js';

/** Tokens as text: `120 in / 30 out`. */
export function usageText(usage: ExportedUsage | null): string {
  if (usage === null) return '';
  return `${usage.inputTokens ?? '?'} in / ${usage.outputTokens ?? '?'} out`;
}

function block(label: string, body: string, open = false): string {
  return `<details class="block"${open ? ' open' : ''}><summary>${escapeHtml(label)}</summary>${body}</details>`;
}

function pre(value: unknown): string {
  return `<pre>${typeof value === 'string' ? escapeHtml(value) : prettyJson(value)}</pre>`;
}

/** Arguments sent as JSON text, parsed so they show indented; anything else as it is. */
function parsedJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** The headline and the expandable parts of one entry. */
interface Parts {
  readonly title: string;
  readonly badge: string;
  readonly outcome: string;
  readonly body: string;
}

function parts(event: ExportedEvent): Parts {
  switch (event.kind) {
    case 'prompt-rendered':
      return {
        title: `Prompt <code>${escapeHtml(event.promptName)}</code> rendered`,
        badge: 'prompt',
        outcome: '',
        body:
          block('Rendered prompt', pre(event.renderedPrompt)) +
          (event.renderInputs.length === 0 ? '' : block('Params', pre(event.renderInputs))),
      };
    case 'tool-call':
      return toolCallParts(event);
    case 'approval':
      return {
        title: `Approval for <code class="tool">${escapeHtml(event.tool)}</code>: <span class="decision ${event.decision}">${event.decision}</span>`,
        badge: 'approval',
        outcome: event.decision,
        body:
          `<p class="reason">${escapeHtml(event.reason)}</p>` +
          (event.message === null ? '' : `<p class="message">${escapeHtml(event.message)}</p>`) +
          block('Arguments', pre(parsedJson(event.arguments))),
      };
    case 'guardrail':
      return {
        title: `Guardrail <code>${escapeHtml(event.policy)}</code> (${escapeHtml(event.stage)}): ${escapeHtml(event.verdict)}`,
        badge: 'guardrail',
        outcome: event.verdict,
        body: event.reason === null ? '' : `<p class="reason">${escapeHtml(event.reason)}</p>`,
      };
    case 'loop-intervention':
      return {
        title: `Loop governor ${escapeHtml(event.action)} (${escapeHtml(event.reason)}) after turn ${event.turn}`,
        badge: 'governor',
        outcome: event.action,
        body: `<p class="message">${escapeHtml(event.message)}</p>`,
      };
    case 'answer':
      return answerParts(event);
  }
}

/** The words a search matches in an entry: everything it shows, lower case. */
function searchText(event: ExportedEvent): string {
  return JSON.stringify(event).toLowerCase();
}

/** One entry of the timeline, with the `data-*` attributes the page's filters read. */
export function timelineEntry(event: ExportedEvent, sessionStart: number): string {
  const { title, badge, outcome, body } = parts(event);
  const offset = Date.parse(event.at) - sessionStart;
  const tool = event.kind === 'tool-call' || event.kind === 'approval' ? event.tool : '';
  return (
    `<li class="entry ${event.kind}" data-kind="${event.kind}" data-tool="${escapeHtml(tool)}" data-outcome="${escapeHtml(outcome)}" data-seq="${event.seq}" data-search="${escapeHtml(searchText(event))}">` +
    `<div class="head"><span class="badge ${badge}">${badge}</span> <span class="time" title="${escapeHtml(event.at)}">+${Number.isFinite(offset) ? offset : 0} ms</span> ${title}</div>` +
    (body === '' ? '' : `<div class="body">${body}</div>`) +
    '</li>'
  );
}

function toolCallParts(event: ExportedToolCall): Parts {
  const notes = [
    event.durationMs === null ? '' : `${Math.round(event.durationMs * 100) / 100} ms`,
    event.rolledBack ? 'rolled back' : '',
    event.deniedBy === null ? '' : `denied by ${event.deniedBy}`,
    event.native ? `native ${event.nativeType ?? ''}` : '',
    event.turnUsage === null ? '' : `turn: ${usageText(event.turnUsage)}`,
  ].filter((note) => note !== '');
  return {
    title: `<code class="tool">${escapeHtml(event.tool)}</code> <span class="outcome ${escapeHtml(event.outcome)}">${escapeHtml(event.outcome)}</span> <span class="muted">${escapeHtml(notes.join(' · '))}</span>`,
    badge: 'tool',
    outcome: event.outcome,
    body:
      block('Arguments', pre(parsedJson(event.arguments))) +
      block('Result', pre({ message: event.resultMessage, value: event.value })) +
      block('What the model read', pre(event.message)) +
      (event.attempts.length === 0 ? '' : block('Attempts', pre(event.attempts))),
  };
}

function answerParts(event: ExportedAnswer): Parts {
  return {
    title: `Answer <span class="muted">${escapeHtml(
      [
        event.durationMs === null ? '' : `${Math.round(event.durationMs)} ms`,
        event.usage === null ? '' : `total ${usageText(event.usage)}`,
        event.turnUsage === null ? '' : `turn: ${usageText(event.turnUsage)}`,
        [event.provider, event.model].filter((item) => item !== null).join(' / '),
      ]
        .filter((note) => note !== '')
        .join(' · '),
    )}</span>`,
    badge: 'answer',
    outcome: '',
    body:
      (event.text === null ? '' : block('Text', pre(event.text), true)) +
      (event.output === null ? '' : block('Output', pre(event.output), true)),
  };
}
