/**
 * `affordance/evals`: know whether an agent got better. A suite is a prompt
 * (or a function running one) and cases with what each expects; scorers
 * check the answer, the structured output, the tool trajectory the session
 * recorded (`ToolInvoked` events), budgets, or ask an LLM judge. A run keeps
 * every trial's session, gives pass@k over repeated trials, and writes a JSON
 * report (`EvalReport`) that `compareEvalReports` checks against a baseline
 * for regressions. `expectEvalSuite` runs a suite inside a test; the
 * `affordance-eval` command runs one in CI; `renderEvalReportHtml` turns a
 * report (and its comparison) into one self-contained HTML page.
 * @packageDocumentation
 */
export type { EvalCase, EvalExpectations, ExpectedCall } from './eval-case.js';
export { EVAL_CASE_ID_PATTERN } from './eval-case.js';
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
export type { EvalProgress, EvalProgressStream } from './eval-progress.js';
export { passFail } from './pass-fail.js';
export type {
  EvalObservation,
  EvalScorer,
  EvalScorerClass,
  EvalScorerRef,
  EvalUsage,
} from './eval-case.js';
export type { EvalSessionsOption } from './eval-sessions.js';
export {
  defineEvalSuite,
  type EvalPrices,
  type EvalRun,
  type EvalRunContext,
  type EvalSuite,
  type EvalSuiteInit,
} from './eval-suite.js';
export { expectationScorers } from './expectation-scorers.js';
export { compareEvalReports } from './compare-eval-reports.js';
export {
  evalSuiteTest,
  expectEvalSuite,
  type ExpectEvalSuiteOptions,
} from './expect-eval-suite.js';
export { formatEvalComparison, formatEvalReport } from './format-eval-report.js';
export { loadEvalCases, type LoadEvalCasesOptions } from './load-eval-cases.js';
export { runEvalSuite, type RunEvalSuiteOptions } from './run-eval-suite.js';
export {
  answerContains,
  answerEquals,
  answerMatches,
  type AnswerScorerOptions,
} from './scorers/answer-scorers.js';
export { withinBudget, type EvalBudget } from './scorers/budget-scorer.js';
export { JudgeVerdict, llmJudge, type LlmJudgeOptions } from './scorers/llm-judge.js';
export { outputFields } from './scorers/output-scorers.js';
export {
  calledInOrder,
  calledTool,
  maxToolCalls,
  neverCalled,
  type ArgumentsMatcher,
  type CallMatcher,
} from './scorers/trajectory-scorers.js';
export {
  EVAL_REPORT_FILE,
  EVAL_REPORT_HTML_FILE,
  readEvalReport,
  writeEvalReport,
  type WriteEvalReportOptions,
} from './write-eval-report.js';
export { EVAL_SESSIONS_DIR } from './write-trial-session.js';
