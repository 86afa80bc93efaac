import { ConfigurationError } from '../../index.js';
import { type EvalObservation, type EvalScorer } from '../eval-case.js';
import { passFail } from '../pass-fail.js';

/** The limits of {@link withinBudget}; give at least one. */
export interface EvalBudget {
  /** The most tokens (input + output) a trial may use. */
  readonly maxTokens?: number;
  /** The most provider requests a trial may make. */
  readonly maxTurns?: number;
  /** The most milliseconds a trial may take. */
  readonly maxDurationMs?: number;
}

/**
 * The trial stayed within `budget` (tokens, turns, duration); the reason
 * names each limit it went over, with the measure.
 */
export function withinBudget(
  budget: EvalBudget,
  options: { readonly name?: string } = {},
): EvalScorer {
  const name = options.name ?? 'budget';
  const limits: [keyof EvalBudget, string, (trial: EvalObservation) => number][] = [
    ['maxTokens', 'tokens', (trial) => trial.usage.totalTokens],
    ['maxTurns', 'turns', (trial) => trial.turns],
    ['maxDurationMs', 'ms', (trial) => Math.round(trial.durationMs)],
  ];
  const given = limits.filter(([key]) => budget[key] !== undefined);
  for (const [key] of given) {
    const limit = budget[key];
    if (limit === undefined || !Number.isFinite(limit) || limit < 0) {
      throw new ConfigurationError({
        subject: `Scorer '${name}' ${key}`,
        problem: `must be a number >= 0, got ${String(limit)}.`,
        fix: `Pass the limit, e.g. withinBudget({ ${key}: 10 }).`,
      });
    }
  }
  if (given.length === 0) {
    throw new ConfigurationError({
      subject: `Scorer '${name}'`,
      problem: 'was given no limit.',
      fix: 'Pass maxTokens, maxTurns or maxDurationMs, e.g. withinBudget({ maxTurns: 4 }).',
    });
  }
  return {
    name,
    score(trial: EvalObservation) {
      const parts = given.map(([key, unit, measure]) => {
        const limit = budget[key] ?? 0;
        const value = measure(trial);
        return { over: value > limit, text: `${value} ${unit} (limit ${limit})` };
      });
      const over = parts.filter((part) => part.over);
      return passFail(
        name,
        over.length === 0,
        over.length === 0
          ? `within budget: ${parts.map((part) => part.text).join(', ')}`
          : `over budget: ${over.map((part) => part.text).join(', ')}`,
      );
    },
  };
}
