import type { EvalCaseResult, EvalComparison, EvalReport } from '../eval-report.js';

/** The nearest-rank percentile `p` (0..100) of `values`; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

/** What the report shows of one case beside its trials. */
export interface CaseFigures {
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly tokens: number;
  readonly costUsd: number | undefined;
  /** Every scorer of the case with how many trials it passed. */
  readonly scorers: readonly {
    readonly scorer: string;
    readonly passed: number;
    readonly of: number;
  }[];
  /** `regression`, `improvement`, `added` or `unchanged` against the baseline; `undefined` without one. */
  readonly change: CaseChange | undefined;
  /** The scorers that failed now in a regressed case. */
  readonly failedScorers: readonly string[];
}

/** How a case moved against the baseline. */
export type CaseChange = 'regression' | 'improvement' | 'added' | 'unchanged';

/** The figures of `entry` (and its change against `comparison`, when given). */
export function caseFigures(entry: EvalCaseResult, comparison?: EvalComparison): CaseFigures {
  const durations = entry.trials.map((trial) => trial.durationMs);
  const costs = entry.trials.map((trial) => trial.costUsd);
  const byScorer = new Map<string, { passed: number; of: number }>();
  for (const trial of entry.trials) {
    for (const score of trial.scores) {
      const tally = byScorer.get(score.scorer) ?? { passed: 0, of: 0 };
      tally.of += 1;
      if (score.passed) tally.passed += 1;
      byScorer.set(score.scorer, tally);
    }
  }
  const regression = comparison?.regressions.find((item) => item.id === entry.id);
  let change: CaseChange | undefined;
  if (comparison !== undefined) {
    if (regression !== undefined) change = 'regression';
    else if (comparison.improvements.includes(entry.id)) change = 'improvement';
    else if (comparison.added.includes(entry.id)) change = 'added';
    else change = 'unchanged';
  }
  return {
    p50Ms: percentile(durations, 50),
    p95Ms: percentile(durations, 95),
    tokens: entry.trials.reduce((sum, trial) => sum + trial.usage.totalTokens, 0),
    costUsd: costs.every((cost) => cost === undefined)
      ? undefined
      : costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0),
    scorers: [...byScorer].map(([scorer, tally]) => ({ scorer, ...tally })),
    change,
    failedScorers: regression?.failedScorers ?? [],
  };
}

/** Every tag of the report's cases, sorted. */
export function allTags(report: EvalReport): readonly string[] {
  return [...new Set(report.cases.flatMap((entry) => entry.tags))].sort();
}

/** `value` (0..1) as a percentage with one decimal. */
export function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/** Milliseconds as text: `850 ms`, `1.25 s`. */
export function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** US dollars as text, with enough decimals for small amounts. */
export function dollars(value: number | undefined): string {
  if (value === undefined) return '—';
  return `$${value < 1 ? value.toFixed(4) : value.toFixed(2)}`;
}
