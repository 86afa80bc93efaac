import type { EvalComparison, EvalReport } from './eval-report.js';
import { contentSecurityPolicy, escapeHtml, scriptNonce } from './html/escape-html.js';
import { caseRows, type InspectorHref } from './html/report-case-table.js';
import { histogramChart, latencyChart, passRateChart } from './html/report-charts.js';
import { REPORT_SCRIPT, REPORT_STYLE } from './html/report-page-assets.js';
import { allTags, caseFigures, dollars, duration, percent } from './html/report-stats.js';

/** Options of {@link renderEvalReportHtml}. */
export interface EvalReportHtmlOptions {
  /** The report compared with a baseline run: regressions and improvements are highlighted. */
  readonly comparison?: EvalComparison | undefined;
  /** The page's title; `Eval report: <suite>` by default. */
  readonly title?: string | undefined;
  /**
   * Where each trial's session can be inspected (e.g. the `affordance-inspect`
   * page of its session export); a trial without one gets no link. Only
   * `http(s)` and relative links are kept.
   */
  readonly inspectorHref?: InspectorHref | undefined;
}

/**
 * The eval report as one self-contained HTML document (inline CSS, SVG charts
 * and a few lines of script; nothing is loaded from the network): a summary,
 * the pass rate and score distribution of each scorer, each case's duration,
 * and a table of cases that expands to each trial's answer, tool calls and
 * scores, filterable by tag and by passed or failed. With `comparison`, the
 * page opens with the regressions and improvements against the baseline and
 * marks their rows. Every text from the report is escaped.
 *
 * @example writeFileSync('report.html', renderEvalReportHtml(report, { comparison }))
 */
export function renderEvalReportHtml(
  report: EvalReport,
  options: EvalReportHtmlOptions = {},
): string {
  const comparison = options.comparison;
  const title = options.title ?? `Eval report: ${report.suite}`;
  const figures = new Map(report.cases.map((entry) => [entry.id, caseFigures(entry, comparison)]));
  const nonce = scriptNonce();
  const rows = report.cases
    .map((entry) => caseRows(entry, caseFigures(entry, comparison), options.inspectorHref))
    .join('');
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    contentSecurityPolicy(nonce) +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>` +
    `<style>${REPORT_STYLE}</style></head><body>` +
    `<h1>${escapeHtml(title)}</h1>` +
    `<p class="muted">Started ${escapeHtml(report.startedAt)}, took ${escapeHtml(duration(report.durationMs))}; ${report.config.trials} trial${report.config.trials === 1 ? '' : 's'} per case, concurrency ${report.config.concurrency}${modelText(report)}.</p>` +
    summaryCards(report) +
    (comparison === undefined ? '' : comparisonBanner(comparison)) +
    '<h2>Scorers</h2>' +
    passRateChart(report.scorers, comparison) +
    `<div class="charts">${report.scorers.map(histogramChart).join('')}</div>` +
    '<h2>Duration per case</h2>' +
    latencyChart(report, figures) +
    '<h2>Cases</h2>' +
    filters(report, comparison !== undefined) +
    '<table class="cases"><thead><tr><th>Case</th><th>Tags</th><th>Input</th><th>Result</th><th>Scorers</th><th>p50 / p95</th><th>Tokens</th><th>Cost</th><th>Change</th></tr></thead>' +
    `<tbody>${rows}</tbody></table>` +
    `<script nonce="${nonce}">${REPORT_SCRIPT}</script></body></html>`
  );
}

function modelText(report: EvalReport): string {
  const { provider, model } = report.config;
  const parts = [provider, model].filter((part): part is string => part !== undefined);
  return parts.length === 0 ? '' : `, ${escapeHtml(parts.join(' / '))}`;
}

function summaryCards(report: EvalReport): string {
  const { summary } = report;
  const card = (label: string, value: string, id: string) =>
    `<div class="card" id="${id}"><div class="muted">${label}</div><div class="big">${escapeHtml(value)}</div></div>`;
  return (
    '<div class="cards">' +
    card('Cases', String(summary.cases), 'summary-cases') +
    card('Pass rate', percent(summary.passRate), 'summary-pass-rate') +
    card('p50 duration', duration(summary.p50DurationMs), 'summary-p50') +
    card('p95 duration', duration(summary.p95DurationMs), 'summary-p95') +
    card('Tokens', String(summary.totalTokens), 'summary-tokens') +
    card('Cost', dollars(summary.costUsd), 'summary-cost') +
    '</div>'
  );
}

function comparisonBanner(comparison: EvalComparison): string {
  const worse = comparison.regressions.length > 0;
  const delta = comparison.current.passRate - comparison.baseline.passRate;
  const list = (ids: readonly string[]) =>
    ids.map((id) => `<code>${escapeHtml(id)}</code>`).join(', ');
  return (
    `<div class="banner ${worse ? 'worse' : 'better'}" id="comparison">` +
    `<strong>Against the baseline of ${escapeHtml(comparison.baseline.startedAt)}:</strong> pass rate ${escapeHtml(percent(comparison.baseline.passRate))} → ${escapeHtml(percent(comparison.current.passRate))} (${delta >= 0 ? '+' : '−'}${escapeHtml(percent(Math.abs(delta)))}). ` +
    `<span id="regression-count">${comparison.regressions.length}</span> regression${comparison.regressions.length === 1 ? '' : 's'}${comparison.regressions.length === 0 ? '' : `: ${list(comparison.regressions.map((item) => item.id))}`}; ` +
    `<span id="improvement-count">${comparison.improvements.length}</span> improvement${comparison.improvements.length === 1 ? '' : 's'}${comparison.improvements.length === 0 ? '' : `: ${list(comparison.improvements)}`}.` +
    (comparison.added.length === 0 ? '' : ` New cases: ${list(comparison.added)}.`) +
    (comparison.removed.length === 0
      ? ''
      : ` Cases no longer in the suite: ${list(comparison.removed)}.`) +
    '</div>'
  );
}

function filters(report: EvalReport, compared: boolean): string {
  const tags = allTags(report)
    .map((tag) => `<option value="${escapeHtml(tag)}">${escapeHtml(tag)}</option>`)
    .join('');
  const change = compared
    ? '<label>Change <select id="filter-change"><option value="">any</option><option value="regression">regressions</option><option value="improvement">improvements</option><option value="added">new</option><option value="unchanged">unchanged</option></select></label>'
    : '';
  return (
    '<div class="filters">' +
    `<label>Tag <select id="filter-tag"><option value="">all</option>${tags}</select></label>` +
    '<label>Result <select id="filter-status"><option value="">all</option><option value="true">passed</option><option value="false">failed</option></select></label>' +
    change +
    `<span class="muted"><span id="shown-count">${report.cases.length}</span> of ${report.cases.length} cases shown</span>` +
    '</div>'
  );
}
