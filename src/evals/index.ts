/**
 * `affordance/evals`: evaluate agents. This part: the eval report's JSON
 * schema (`EvalReport`, stable within `schemaVersion: 1`) and its
 * self-contained HTML rendering (`renderEvalReportHtml`).
 * @packageDocumentation
 */
export type {
  EvalCaseResult,
  EvalComparison,
  EvalReport,
  EvalScore,
  EvalScorerSummary,
  EvalToolCall,
  EvalTrial,
} from './eval-report.js';
export { renderEvalReportHtml, type EvalReportHtmlOptions } from './render-eval-report-html.js';
export type { InspectorHref } from './html/report-case-table.js';
