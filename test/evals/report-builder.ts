import type {
  EvalCaseResult,
  EvalReport,
  EvalScore,
  EvalScorerSummary,
  EvalTrial,
} from 'affordance/evals';

/** One trial as a test writes it: its scores and figures; the rest is worked out. */
export interface TrialSpec {
  readonly answer: string | null;
  readonly scores: readonly EvalScore[];
  readonly durationMs: number;
  readonly tokens: number;
  readonly costUsd?: number;
  readonly toolCalls?: EvalTrial['toolCalls'];
  readonly error?: string;
}

/** One case as a test writes it. */
export interface CaseSpec {
  readonly id: string;
  readonly tags: readonly string[];
  readonly input: string;
  readonly trials: readonly TrialSpec[];
}

export const score = (
  scorer: string,
  value: number,
  reason = `${scorer} said ${value}`,
): EvalScore => ({
  scorer,
  score: value,
  passed: value >= 1,
  reason,
});

function nearestRank(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1] ?? 0;
}

/** A report computed from `cases` the way the schema defines each field (pass@k, histograms, percentiles). */
export function buildReport(
  suite: string,
  cases: readonly CaseSpec[],
  startedAt: string,
): EvalReport {
  const results: EvalCaseResult[] = cases.map((spec) => {
    const trials: EvalTrial[] = spec.trials.map((trial, index) => ({
      trial: index + 1,
      answer: trial.answer,
      toolCalls: trial.toolCalls ?? [],
      scores: trial.scores,
      passed: trial.scores.every((item) => item.passed),
      ...(trial.error === undefined ? {} : { error: trial.error }),
      durationMs: trial.durationMs,
      turns: 1 + (trial.toolCalls?.length ?? 0),
      usage: { inputTokens: trial.tokens - 10, outputTokens: 10, totalTokens: trial.tokens },
      ...(trial.costUsd === undefined ? {} : { costUsd: trial.costUsd }),
      sessionId: `${spec.id}-session-${index + 1}`,
    }));
    const passed = trials.filter((trial) => trial.passed).length;
    return {
      id: spec.id,
      tags: spec.tags,
      input: spec.input,
      trials,
      passAtK: passed > 0 ? 1 : 0,
      passRate: passed / trials.length,
    };
  });
  const allScores = results.flatMap((entry) => entry.trials.flatMap((trial) => trial.scores));
  const scorerNames = [...new Set(allScores.map((item) => item.scorer))];
  const scorers: EvalScorerSummary[] = scorerNames.map((scorer) => {
    const mine = allScores.filter((item) => item.scorer === scorer);
    const histogram = Array.from({ length: 10 }, () => 0);
    for (const item of mine) histogram[Math.min(9, Math.floor(item.score * 10))]! += 1;
    return {
      scorer,
      passRate: mine.filter((item) => item.passed).length / mine.length,
      meanScore: mine.reduce((sum, item) => sum + item.score, 0) / mine.length,
      histogram,
    };
  });
  const durations = results.flatMap((entry) => entry.trials.map((trial) => trial.durationMs));
  const trials = results.flatMap((entry) => entry.trials);
  return {
    schemaVersion: 1,
    suite,
    startedAt,
    durationMs: durations.reduce((sum, ms) => sum + ms, 0),
    config: {
      trials: Math.max(...cases.map((spec) => spec.trials.length)),
      concurrency: 4,
      provider: 'scripted',
    },
    cases: results,
    scorers,
    summary: {
      cases: results.length,
      passRate: results.filter((entry) => entry.passAtK === 1).length / results.length,
      totalTokens: trials.reduce((sum, trial) => sum + trial.usage.totalTokens, 0),
      costUsd: trials.reduce((sum, trial) => sum + (trial.costUsd ?? 0), 0),
      p50DurationMs: nearestRank(durations, 50),
      p95DurationMs: nearestRank(durations, 95),
    },
  };
}
