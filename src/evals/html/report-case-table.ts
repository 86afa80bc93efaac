import type { EvalCaseResult, EvalTrial } from '../eval-report.js';
import { escapeHtml, prettyJson } from './escape-html.js';
import { type CaseFigures, dollars, duration, percent } from './report-stats.js';

/** Where a trial's session can be inspected, if anywhere. */
export type InspectorHref = (caseId: string, trial: number) => string | undefined;

/**
 * One row per case (its id, tags, input, pass rate, scorers, duration, tokens,
 * cost and change against the baseline) followed by a row that expands to
 * each trial's answer, tool calls and scores. The row's `data-*` attributes
 * are what the page's filters read.
 */
export function caseRows(
  entry: EvalCaseResult,
  figures: CaseFigures,
  inspectorHref: InspectorHref | undefined,
): string {
  const passed = entry.passAtK >= 1;
  const change = figures.change ?? '';
  const badges = figures.scorers
    .map(
      ({ scorer, passed: count, of }) =>
        `<span class="badge ${count === of ? 'pass' : 'fail'}" data-scorer="${escapeHtml(scorer)}">${escapeHtml(scorer)} ${count}/${of}</span>`,
    )
    .join(' ');
  const changeCell =
    figures.change === 'regression'
      ? `<span class="change regression">regression</span> <span class="muted">${escapeHtml(figures.failedScorers.join(', '))}</span>`
      : figures.change === undefined || figures.change === 'unchanged'
        ? ''
        : `<span class="change ${figures.change}">${figures.change}</span>`;
  const attributes =
    `class="case ${passed ? 'passed' : 'failed'}${change === '' ? '' : ` ${change}`}" ` +
    `data-case="${escapeHtml(entry.id)}" data-passed="${String(passed)}" ` +
    `data-tags="${escapeHtml(JSON.stringify(entry.tags))}" data-change="${change}"`;
  const row =
    `<tr ${attributes}>` +
    `<td class="id">${escapeHtml(entry.id)}</td>` +
    `<td class="tags">${entry.tags.map((tag) => `<span class="tag">${escapeHtml(tag)}</span>`).join(' ')}</td>` +
    `<td class="input">${escapeHtml(entry.input)}</td>` +
    `<td class="status"><span class="badge ${passed ? 'pass' : 'fail'}">${passed ? 'passed' : 'failed'}</span> <span class="muted">${escapeHtml(percent(entry.passRate))}</span></td>` +
    `<td class="scorers">${badges}</td>` +
    `<td class="num">${escapeHtml(duration(figures.p50Ms))} / ${escapeHtml(duration(figures.p95Ms))}</td>` +
    `<td class="num">${figures.tokens}</td>` +
    `<td class="num">${escapeHtml(dollars(figures.costUsd))}</td>` +
    `<td class="changed">${changeCell}</td>` +
    '</tr>';
  const trials = entry.trials.map((trial) => trialBlock(entry.id, trial, inspectorHref)).join('');
  const details =
    `<tr class="details" data-details-for="${escapeHtml(entry.id)}"><td colspan="9">` +
    `<details><summary>${entry.trials.length} trial${entry.trials.length === 1 ? '' : 's'}: answers, tool calls, scores</summary>${trials}</details>` +
    '</td></tr>';
  return row + details;
}

function trialBlock(
  caseId: string,
  trial: EvalTrial,
  inspectorHref: InspectorHref | undefined,
): string {
  const href = inspectorHref?.(caseId, trial.trial);
  const link =
    href === undefined
      ? ''
      : ` <a class="inspect" href="${escapeHtml(safeHref(href))}">inspect session</a>`;
  const answer =
    trial.answer === null
      ? '<p class="muted">No answer.</p>'
      : `<pre class="answer">${escapeHtml(trial.answer)}</pre>`;
  const error = trial.error === undefined ? '' : `<p class="error">${escapeHtml(trial.error)}</p>`;
  const calls =
    trial.toolCalls.length === 0
      ? '<p class="muted">No tool calls.</p>'
      : `<ol class="tool-calls">${trial.toolCalls
          .map(
            (call) =>
              `<li class="tool-call" data-outcome="${escapeHtml(call.outcome)}"><details><summary><code>${escapeHtml(call.name)}</code> <span class="outcome ${escapeHtml(call.outcome)}">${escapeHtml(call.outcome)}</span> <span class="muted">${escapeHtml(duration(call.durationMs))}</span></summary><pre>${prettyJson(call.arguments)}</pre></details></li>`,
          )
          .join('')}</ol>`;
  const scores = `<ul class="scores">${trial.scores
    .map(
      (score) =>
        `<li class="${score.passed ? 'pass' : 'fail'}"><strong>${escapeHtml(score.scorer)}</strong> ${score.score.toFixed(2)}: ${escapeHtml(score.reason)}</li>`,
    )
    .join('')}</ul>`;
  return (
    `<section class="trial" data-trial="${trial.trial}"><h4>Trial ${trial.trial} <span class="badge ${trial.passed ? 'pass' : 'fail'}">${trial.passed ? 'passed' : 'failed'}</span> <span class="muted">${escapeHtml(duration(trial.durationMs))}, ${trial.turns} turn${trial.turns === 1 ? '' : 's'}, ${trial.usage.totalTokens} tokens</span>${link}</h4>` +
    error +
    answer +
    calls +
    scores +
    '</section>'
  );
}

/** A link target that cannot run script: `javascript:` and other schemes than http(s) and relative ones become `#`. */
function safeHref(href: string): string {
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
  return scheme === undefined || scheme === 'http' || scheme === 'https' ? href : '#';
}
