import { isDeepStrictEqual } from 'node:util';

import { ConfigurationError } from '../../index.js';
import { type EvalObservation, type EvalScorer } from '../eval-case.js';
import { passFail, shown } from '../pass-fail.js';
import { noAnswer } from './answer-scorers.js';
import { valueAt } from './deep-match.js';

/**
 * Fields of the structured output, by dotted path (`'ticketId'`,
 * `'customer.email'`, `'articleIds.0'`), each deep-equal to its expected
 * value. The score is the share of fields that match.
 *
 * @example
 * outputFields({ resolution: 'ticket_opened', 'articleIds.0': 'kb-412' })
 */
export function outputFields(
  expected: Readonly<Record<string, unknown>>,
  options: { readonly name?: string } = {},
): EvalScorer {
  const name = options.name ?? 'output-fields';
  const entries = Object.entries(expected);
  if (entries.length === 0) {
    throw new ConfigurationError({
      subject: `Scorer '${name}'`,
      problem: 'was given no fields to check.',
      fix: "Pass at least one field, e.g. outputFields({ resolution: 'answered' }).",
    });
  }
  return {
    name,
    score(trial: EvalObservation) {
      if (trial.output === undefined || trial.output === null) {
        return passFail(
          name,
          false,
          trial.error === undefined ? 'the trial gave no structured output' : noAnswer(trial),
        );
      }
      const plainOutput = JSON.parse(JSON.stringify(trial.output)) as unknown;
      const wrong = entries.filter(
        ([path, want]) => !isDeepStrictEqual(valueAt(plainOutput, path), want),
      );
      return {
        scorer: name,
        score: (entries.length - wrong.length) / entries.length,
        passed: wrong.length === 0,
        reason:
          wrong.length === 0
            ? `output ${entries.map(([path, want]) => `${path} = ${shown(want)}`).join(', ')}`
            : wrong
                .map(
                  ([path, want]) =>
                    `output ${path} is ${shown(valueAt(plainOutput, path))}, expected ${shown(want)}`,
                )
                .join('; '),
      };
    },
  };
}
