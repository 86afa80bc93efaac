import type { EvalCaseResult, EvalScorerSummary, EvalTrial } from './eval-report.js';

/** Buckets of the score histograms: [0,0.1) ... [0.9,1.0]. */
const BUCKETS = 10;

/** A case's result from its trials: pass@k (1 when any trial passed) and the share passed. */
export function caseResult(
  id: string,
  tags: readonly string[],
  input: string,
  trials: readonly EvalTrial[],
): EvalCaseResult {
  const passed = trials.filter((trial) => trial.passed).length;
  return {
    id,
    tags,
    input,
    trials,
    passAtK: passed > 0 ? 1 : 0,
    passRate: trials.length === 0 ? 0 : passed / trials.length,
  };
}

/** Per-scorer pass rate, mean score and histogram over every trial of every case, by first appearance. */
export function summarizeScorers(cases: readonly EvalCaseResult[]): EvalScorerSummary[] {
  const byName = new Map<
    string,
    { passed: number; total: number; sum: number; histogram: number[] }
  >();
  for (const evalCase of cases) {
    for (const trial of evalCase.trials) {
      for (const score of trial.scores) {
        let entry = byName.get(score.scorer);
        if (entry === undefined) {
          entry = { passed: 0, total: 0, sum: 0, histogram: new Array<number>(BUCKETS).fill(0) };
          byName.set(score.scorer, entry);
        }
        entry.total += 1;
        entry.sum += score.score;
        if (score.passed) entry.passed += 1;
        const bucket = Math.min(BUCKETS - 1, Math.max(0, Math.floor(score.score * BUCKETS)));
        entry.histogram[bucket] = (entry.histogram[bucket] ?? 0) + 1;
      }
    }
  }
  return [...byName].map(([scorer, entry]) => ({
    scorer,
    passRate: entry.passed / entry.total,
    meanScore: entry.sum / entry.total,
    histogram: entry.histogram,
  }));
}

/** The `p`-th percentile (0..100) of `values`, nearest rank; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] ?? 0;
}
