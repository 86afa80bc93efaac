import { ConfigurationError } from '../index.js';
import type { EvalCaseResult, EvalComparison, EvalReport } from './eval-report.js';

/**
 * Compares `current` with `baseline` (cases matched by id): a regression is a
 * case that passed (pass@k) in the baseline and fails now, with the scorers
 * that failed in its trials; an improvement the other way round. Also lists
 * cases added and removed, and each scorer's pass-rate change (scorers in
 * both reports).
 *
 * @example
 * const comparison = compareEvalReports(JSON.parse(readFileSync('baseline/report.json', 'utf8')), report);
 * if (comparison.regressions.length > 0) process.exitCode = 1;
 * @throws ConfigurationError when a report is not an `EvalReport` of schema version 1.
 */
export function compareEvalReports(baseline: EvalReport, current: EvalReport): EvalComparison {
  checkReport(baseline, 'baseline');
  checkReport(current, 'current');
  const before = new Map(baseline.cases.map((evalCase) => [evalCase.id, evalCase]));
  const now = new Map(current.cases.map((evalCase) => [evalCase.id, evalCase]));
  const regressions: { id: string; failedScorers: string[] }[] = [];
  const improvements: string[] = [];
  for (const [id, result] of now) {
    const old = before.get(id);
    if (old === undefined) continue;
    if (old.passAtK === 1 && result.passAtK === 0) {
      regressions.push({ id, failedScorers: failedScorers(result) });
    } else if (old.passAtK === 0 && result.passAtK === 1) {
      improvements.push(id);
    }
  }
  const baselineScorers = new Map(baseline.scorers.map((scorer) => [scorer.scorer, scorer]));
  return {
    baseline: { startedAt: baseline.startedAt, passRate: baseline.summary.passRate },
    current: { startedAt: current.startedAt, passRate: current.summary.passRate },
    regressions,
    improvements,
    added: [...now.keys()].filter((id) => !before.has(id)),
    removed: [...before.keys()].filter((id) => !now.has(id)),
    scorerDeltas: current.scorers.flatMap((scorer) => {
      const old = baselineScorers.get(scorer.scorer);
      return old === undefined
        ? []
        : [{ scorer: scorer.scorer, delta: scorer.passRate - old.passRate }];
    }),
  };
}

/** The names of the scorers that failed in any trial of `result`, in order of first failure. */
function failedScorers(result: EvalCaseResult): string[] {
  const names = new Set<string>();
  for (const trial of result.trials) {
    for (const score of trial.scores) if (!score.passed) names.add(score.scorer);
    if (trial.error !== undefined && trial.scores.length === 0) names.add('(run failed)');
  }
  return [...names];
}

function checkReport(report: EvalReport, which: string): void {
  const value = report as Partial<EvalReport> | null;
  if (
    value === null ||
    typeof value !== 'object' ||
    value.schemaVersion !== 1 ||
    !Array.isArray(value.cases) ||
    !Array.isArray(value.scorers) ||
    typeof value.summary !== 'object'
  ) {
    throw new ConfigurationError({
      subject: `compareEvalReports ${which} report`,
      problem: `is not an eval report of schema version 1 (schemaVersion: ${(JSON.stringify(value?.schemaVersion) as string | undefined) ?? 'none'}).`,
      fix: 'Pass the parsed report.json written by writeEvalReport or the affordance-eval command.',
    });
  }
}
