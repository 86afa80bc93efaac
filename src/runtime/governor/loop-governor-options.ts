import { ConfigurationError } from '../../core/errors/configuration-error.js';

/**
 * How the loop governor watches an evaluation (`RuntimeOptions.governor`,
 * overridden per evaluation by `EvaluateOptions.governor`). The governor
 * tells the model once, in plain words, when it keeps repeating a failing
 * call or makes no progress; when the model goes on all the same, it stops
 * the evaluation with a `LoopStoppedError` instead of spending the remaining
 * turns. Every intervention is recorded as a `LoopIntervention` event.
 */
export interface LoopGovernorOptions {
  /**
   * After how many identical failures (same tool, same arguments, same
   * failure message) the model is told to stop repeating that call; the
   * next such failure stops the evaluation (`reason: 'repeated-failure'`).
   * At least 1. Defaults to 3 (`DEFAULT_LOOP_GOVERNOR.repeatedFailures`).
   */
  readonly repeatedFailures?: number | undefined;
  /**
   * After how many turns in a row whose calls made no progress (no session
   * state changed, and no call returned a successful result the evaluation
   * had not seen before) the model is told it is going in circles; another
   * such turn stops the evaluation (`reason: 'no-progress'`). At least 1.
   * Defaults to 5 (`DEFAULT_LOOP_GOVERNOR.idleTurns`).
   */
  readonly idleTurns?: number | undefined;
  /**
   * Whether the last request `maxTurns` allows tells the model to answer now
   * with what it has. Defaults to `true`.
   */
  readonly lastTurnNotice?: boolean | undefined;
  /** `false` turns the repetition and progress checks off (the last-turn notice stays as set). */
  readonly enabled?: boolean | undefined;
}

/** The loop governor's settings with every default applied (see {@link LoopGovernorOptions}). */
export interface LoopGovernorSettings {
  readonly repeatedFailures: number;
  readonly idleTurns: number;
  readonly lastTurnNotice: boolean;
  readonly enabled: boolean;
}

/** The defaults of {@link LoopGovernorOptions}. */
export const DEFAULT_LOOP_GOVERNOR: LoopGovernorSettings = Object.freeze({
  repeatedFailures: 3,
  idleTurns: 5,
  lastTurnNotice: true,
  enabled: true,
});

/**
 * `options` over `base` (the runtime's settings, or the defaults), checked.
 * @throws ConfigurationError for a count that is not a positive integer. @internal
 */
export function loopGovernorSettings(
  options: LoopGovernorOptions | undefined,
  base: LoopGovernorSettings = DEFAULT_LOOP_GOVERNOR,
): LoopGovernorSettings {
  if (options === undefined) return base;
  return {
    repeatedFailures: count(options.repeatedFailures ?? base.repeatedFailures, 'repeatedFailures'),
    idleTurns: count(options.idleTurns ?? base.idleTurns, 'idleTurns'),
    lastTurnNotice: options.lastTurnNotice ?? base.lastTurnNotice,
    enabled: options.enabled ?? base.enabled,
  };
}

function count(value: number, name: string): number {
  if (Number.isInteger(value) && value >= 1) return value;
  throw new ConfigurationError({
    subject: `governor.${name}`,
    problem: `must be an integer of at least 1, got ${String(value)}.`,
    fix: `Pass a whole number such as ${String(DEFAULT_LOOP_GOVERNOR[name as 'idleTurns' | 'repeatedFailures'])}, or governor: { enabled: false } to turn the checks off.`,
  });
}
