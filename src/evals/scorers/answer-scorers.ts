import { compileLinearPattern, ConfigurationError } from '../../index.js';
import { type EvalObservation, type EvalScorer } from '../eval-case.js';
import { passFail, shown } from '../pass-fail.js';

/** Options of the answer scorers. */
export interface AnswerScorerOptions {
  /** The scorer's name; each scorer has its own default. */
  readonly name?: string;
  /** Compare ignoring case. `false` by default. */
  readonly ignoreCase?: boolean;
}

/** The answer text exactly equal to `expected` (surrounding whitespace ignored). */
export function answerEquals(expected: string, options: AnswerScorerOptions = {}): EvalScorer {
  const name = options.name ?? 'answer-equals';
  const fold = (text: string): string =>
    options.ignoreCase === true ? text.trim().toLowerCase() : text.trim();
  return {
    name,
    score(trial: EvalObservation) {
      if (trial.answer === null) return passFail(name, false, noAnswer(trial));
      const passed = fold(trial.answer) === fold(expected);
      return passFail(
        name,
        passed,
        passed
          ? `the answer is ${shown(expected)}`
          : `expected the answer ${shown(expected)}, got ${shown(trial.answer)}`,
      );
    },
  };
}

/**
 * The answer contains each of `expected`; the score is the share found, and
 * it passes when all are.
 */
export function answerContains(
  expected: string | readonly string[],
  options: AnswerScorerOptions = {},
): EvalScorer {
  const name = options.name ?? 'answer-contains';
  const wanted = typeof expected === 'string' ? [expected] : [...expected];
  if (wanted.length === 0) {
    throw new ConfigurationError({
      subject: `Scorer '${name}'`,
      problem: 'was given no text to look for.',
      fix: 'Pass at least one string, e.g. answerContains(["refund"]).',
    });
  }
  const fold = (text: string): string => (options.ignoreCase === true ? text.toLowerCase() : text);
  return {
    name,
    score(trial: EvalObservation) {
      if (trial.answer === null) return passFail(name, false, noAnswer(trial));
      const answer = fold(trial.answer);
      const missing = wanted.filter((text) => !answer.includes(fold(text)));
      const score = (wanted.length - missing.length) / wanted.length;
      return {
        scorer: name,
        score,
        passed: missing.length === 0,
        reason:
          missing.length === 0
            ? `the answer contains ${wanted.map((text) => shown(text)).join(', ')}`
            : `the answer lacks ${missing.map((text) => shown(text)).join(', ')}: ${shown(trial.answer)}`,
      };
    },
  };
}

/**
 * The answer matches `pattern`, a regular expression run in linear time
 * (`compileLinearPattern`: no backreferences nor lookaround), so a case file
 * cannot stall the run. Refused patterns fail when the scorer is made.
 */
export function answerMatches(pattern: string, options: AnswerScorerOptions = {}): EvalScorer {
  const name = options.name ?? 'answer-matches';
  const compiled = compileLinearPattern(pattern, { ignoreCase: options.ignoreCase === true });
  if (!compiled.ok) {
    throw new ConfigurationError({
      subject: `Scorer '${name}' pattern ${shown(pattern)}`,
      problem: `${compiled.problem}.`,
      fix: 'Use a pattern without backreferences or lookaround (it runs in linear time), e.g. "T-\\\\d+".',
    });
  }
  const { pattern: linear } = compiled;
  return {
    name,
    score(trial: EvalObservation) {
      if (trial.answer === null) return passFail(name, false, noAnswer(trial));
      const passed = linear.test(trial.answer);
      return passFail(
        name,
        passed,
        passed
          ? `the answer matches /${pattern}/`
          : `the answer does not match /${pattern}/: ${shown(trial.answer)}`,
      );
    },
  };
}

/** The reason of a score on a trial without an answer. */
export function noAnswer(trial: EvalObservation): string {
  return trial.error === undefined
    ? 'the trial gave no answer'
    : `the run failed before answering: ${trial.error}`;
}
