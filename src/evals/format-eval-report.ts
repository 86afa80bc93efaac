import type { EvalComparison, EvalReport } from './eval-report.js';

/** The share `rate` (0..1) as a percentage with one decimal. */
export function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

/**
 * A plain-text summary of `report`: the pass rate, then one row per failed
 * case (its id, trials passed, and each failed scorer with its reason, from
 * its first failed trial). Used by the CLI and `expectEvalSuite`.
 */
export function formatEvalReport(report: EvalReport): string {
  const { summary } = report;
  const passed = report.cases.filter((result) => result.passAtK === 1).length;
  const lines = [
    `${report.suite}: ${passed}/${summary.cases} cases passed (${percent(summary.passRate)}), ` +
      `${report.config.trials} trial(s) each, ${summary.totalTokens} tokens, p50 ${Math.round(summary.p50DurationMs)} ms`,
  ];
  const failed = report.cases.filter((result) => result.passAtK === 0);
  if (failed.length === 0) return lines.join('\n');
  const width = Math.max(...failed.map((result) => result.id.length), 4);
  lines.push('', `${'case'.padEnd(width)}  trials  failed scorer: reason`);
  for (const result of failed) {
    const trial = result.trials.find((entry) => !entry.passed);
    const passedTrials = result.trials.filter((entry) => entry.passed).length;
    const failures =
      trial === undefined
        ? []
        : trial.scores
            .filter((score) => !score.passed)
            .map((score) => `${score.scorer}: ${score.reason}`);
    if (trial?.error !== undefined && failures.length === 0)
      failures.push(`run failed: ${trial.error}`);
    const head = `${result.id.padEnd(width)}  ${`${passedTrials}/${result.trials.length}`.padEnd(6)}  `;
    lines.push(`${head}${failures[0] ?? ''}`);
    for (const more of failures.slice(1)) lines.push(`${' '.repeat(head.length)}${more}`);
  }
  return lines.join('\n');
}

/** A plain-text summary of a comparison: pass rates, then each regression and improvement. */
export function formatEvalComparison(comparison: EvalComparison): string {
  const lines = [
    `pass rate ${percent(comparison.baseline.passRate)} → ${percent(comparison.current.passRate)}: ` +
      `${comparison.regressions.length} regression(s), ${comparison.improvements.length} improvement(s)`,
  ];
  for (const regression of comparison.regressions) {
    lines.push(`  regressed: ${regression.id} (${regression.failedScorers.join(', ')})`);
  }
  for (const id of comparison.improvements) lines.push(`  improved: ${id}`);
  if (comparison.added.length > 0) lines.push(`  added: ${comparison.added.join(', ')}`);
  if (comparison.removed.length > 0) lines.push(`  removed: ${comparison.removed.join(', ')}`);
  return lines.join('\n');
}
