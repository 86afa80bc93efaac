import type { EvalComparison, EvalReport, EvalScorerSummary } from '../eval-report.js';
import { escapeHtml } from './escape-html.js';
import { type CaseFigures, duration, percent } from './report-stats.js';

const BAR_HEIGHT = 22;
const LABEL_WIDTH = 200;
const PLOT_WIDTH = 360;

/**
 * One horizontal bar per scorer, its length the scorer's pass rate; with a
 * comparison, the change against the baseline beside it.
 */
export function passRateChart(
  scorers: readonly EvalScorerSummary[],
  comparison: EvalComparison | undefined,
): string {
  const height = Math.max(1, scorers.length) * BAR_HEIGHT + 8;
  const rows = scorers.map((summary, index) => {
    const y = index * BAR_HEIGHT + 4;
    const width = Math.round(summary.passRate * PLOT_WIDTH);
    const delta = comparison?.scorerDeltas.find((item) => item.scorer === summary.scorer)?.delta;
    const deltaText =
      delta === undefined || delta === 0
        ? ''
        : `<text class="delta ${delta < 0 ? 'worse' : 'better'}" x="${LABEL_WIDTH + PLOT_WIDTH + 70}" y="${y + 15}">${delta > 0 ? '+' : '−'}${escapeHtml(percent(Math.abs(delta)))}</text>`;
    return (
      `<text class="label" x="${LABEL_WIDTH - 6}" y="${y + 15}" text-anchor="end">${escapeHtml(summary.scorer)}</text>` +
      `<rect class="track" x="${LABEL_WIDTH}" y="${y}" width="${PLOT_WIDTH}" height="${BAR_HEIGHT - 6}"></rect>` +
      `<rect class="bar pass-rate" data-scorer="${escapeHtml(summary.scorer)}" data-value="${summary.passRate}" x="${LABEL_WIDTH}" y="${y}" width="${width}" height="${BAR_HEIGHT - 6}"><title>${escapeHtml(`${summary.scorer}: ${percent(summary.passRate)} passed`)}</title></rect>` +
      `<text class="value" x="${LABEL_WIDTH + PLOT_WIDTH + 6}" y="${y + 15}">${escapeHtml(percent(summary.passRate))}</text>` +
      deltaText
    );
  });
  return svg('pass-rates', LABEL_WIDTH + PLOT_WIDTH + 130, height, 'Pass rate per scorer', rows);
}

/** A histogram of one scorer's scores: ten buckets, one bar each (a bar of height 0 for an empty bucket). */
export function histogramChart(summary: EvalScorerSummary): string {
  const width = 240;
  const height = 90;
  const plot = 70;
  const most = Math.max(1, ...summary.histogram);
  const step = width / 10;
  const bars = summary.histogram.slice(0, 10).map((count, bucket) => {
    const barHeight = Math.round((count / most) * plot);
    const label = `${(bucket / 10).toFixed(1)}–${((bucket + 1) / 10).toFixed(1)}: ${count}`;
    return `<rect class="bar bucket" data-bucket="${bucket}" data-count="${count}" x="${Math.round(bucket * step) + 1}" y="${plot - barHeight}" width="${Math.round(step) - 2}" height="${barHeight}"><title>${escapeHtml(label)}</title></rect>`;
  });
  const axis = `<line class="axis" x1="0" y1="${plot}" x2="${width}" y2="${plot}"></line><text class="tick" x="0" y="${plot + 14}">0</text><text class="tick" x="${width}" y="${plot + 14}" text-anchor="end">1</text>`;
  return (
    `<figure class="histogram" data-scorer="${escapeHtml(summary.scorer)}"><figcaption>${escapeHtml(summary.scorer)} <span class="muted">mean ${summary.meanScore.toFixed(2)}</span></figcaption>` +
    svg('scores', width, height, `Score distribution of ${summary.scorer}`, [...bars, axis]) +
    '</figure>'
  );
}

/** One bar per case, its length the case's median duration, with the run's p50 and p95 as lines. */
export function latencyChart(
  report: EvalReport,
  figures: ReadonlyMap<string, CaseFigures>,
): string {
  const cases = report.cases;
  const longest = Math.max(
    1,
    report.summary.p95DurationMs,
    ...cases.map((entry) => figures.get(entry.id)?.p95Ms ?? 0),
  );
  const scale = (ms: number) => Math.round((ms / longest) * PLOT_WIDTH);
  const height = Math.max(1, cases.length) * BAR_HEIGHT + 24;
  const rows = cases.map((entry, index) => {
    const y = index * BAR_HEIGHT + 4;
    const median = figures.get(entry.id)?.p50Ms ?? 0;
    return (
      `<text class="label" x="${LABEL_WIDTH - 6}" y="${y + 15}" text-anchor="end">${escapeHtml(entry.id)}</text>` +
      `<rect class="bar latency" data-case="${escapeHtml(entry.id)}" data-value="${median}" x="${LABEL_WIDTH}" y="${y}" width="${scale(median)}" height="${BAR_HEIGHT - 6}"><title>${escapeHtml(`${entry.id}: ${duration(median)}`)}</title></rect>`
    );
  });
  const bottom = cases.length * BAR_HEIGHT + 8;
  const marks = [
    ['p50', report.summary.p50DurationMs],
    ['p95', report.summary.p95DurationMs],
  ].map(([name, ms]) => {
    const x = LABEL_WIDTH + scale(ms as number);
    return `<line class="mark" x1="${x}" y1="0" x2="${x}" y2="${bottom}"></line><text class="tick" x="${x}" y="${bottom + 12}" text-anchor="middle">${escapeHtml(`${String(name)} ${duration(ms as number)}`)}</text>`;
  });
  return svg('latency', LABEL_WIDTH + PLOT_WIDTH + 60, height, 'Duration per case', [
    ...rows,
    ...marks,
  ]);
}

function svg(
  kind: string,
  width: number,
  height: number,
  title: string,
  body: readonly string[],
): string {
  return `<svg class="chart ${kind}" role="img" aria-label="${escapeHtml(title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">${body.join('')}</svg>`;
}
