import { Container, type Newable } from 'inversify';

import { type AffordanceRuntime, ConfigurationError } from '../index.js';
import type { EvalCase } from './eval-case.js';
import type { EvalScorer, EvalScorerRef } from './eval-case.js';
import type { EvalSuite } from './eval-suite.js';
import { expectationScorers } from './expectation-scorers.js';

/**
 * Resolves scorer classes from the runtime's container: a class bound there
 * is resolved as bound; an unbound one is built by a child container of it
 * (so its constructor may inject the application's services), once per run.
 * One resolver serves one suite.
 */
export class ScorerResolver {
  readonly #runtime: AffordanceRuntime;
  /** Made on the first scorer class: a suite of scorer objects needs no container. */
  #child: Container | undefined;
  readonly #resolved = new Map<object, Promise<EvalScorer>>();
  #suiteScorers: Promise<EvalScorer[]> | undefined;

  constructor(runtime: AffordanceRuntime) {
    this.#runtime = runtime;
  }

  /** The suite's, the expectations' and the case's own scorers of `evalCase`, in that order; names unique. */
  async forCase(suite: EvalSuite, evalCase: EvalCase): Promise<EvalScorer[]> {
    let scorers: EvalScorer[];
    try {
      // The suite's scorers are the same for every case: resolved once (a rejection is then every case's).
      this.#suiteScorers ??= Promise.all(suite.scorers.map((ref) => this.resolve(ref)));
      const caseRefs = evalCase.scorers ?? [];
      scorers = [
        ...(await this.#suiteScorers),
        ...expectationScorers(evalCase.expected),
        ...(caseRefs.length === 0
          ? []
          : await Promise.all(caseRefs.map((ref) => this.resolve(ref)))),
      ];
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new ConfigurationError({
        subject: `Eval suite '${suite.name}', case '${evalCase.id}'`,
        problem: `has a scorer that could not be made: ${message}`,
        fix: 'Correct the expectation or scorer named above.',
        cause: error,
      });
    }
    const seen = new Set<string>();
    for (const scorer of scorers) {
      if (seen.has(scorer.name)) {
        throw new ConfigurationError({
          subject: `Eval suite '${suite.name}', case '${evalCase.id}'`,
          problem: `has two scorers named '${scorer.name}'.`,
          fix: 'Give one of them another name (each built-in scorer takes a name option).',
        });
      }
      seen.add(scorer.name);
    }
    if (scorers.length === 0) {
      throw new ConfigurationError({
        subject: `Eval suite '${suite.name}', case '${evalCase.id}'`,
        problem: 'has no scorer: it would pass whatever the agent does.',
        fix: 'Give the case expected values, scorers, or give the suite scorers.',
      });
    }
    return scorers;
  }

  resolve(ref: EvalScorerRef): Promise<EvalScorer> {
    if (typeof ref !== 'function') return Promise.resolve(checked(ref, undefined));
    let resolved = this.#resolved.get(ref);
    if (resolved === undefined) {
      const container = (this.#child ??= new Container({ parent: this.#runtime.container }));
      const id = ref as unknown as Newable<EvalScorer>;
      if (!container.isBound(id)) container.bind(id).toSelf().inSingletonScope();
      resolved = container.getAsync<EvalScorer>(id).then((scorer) => checked(scorer, ref));
      this.#resolved.set(ref, resolved);
    }
    return resolved;
  }
}

function checked(scorer: EvalScorer, ref: { readonly name: string } | undefined): EvalScorer {
  const value = scorer as Partial<EvalScorer> | null;
  if (
    value === null ||
    typeof value !== 'object' ||
    typeof value.name !== 'string' ||
    value.name === '' ||
    typeof value.score !== 'function'
  ) {
    throw new ConfigurationError({
      subject: ref === undefined ? 'An eval scorer' : `Eval scorer class ${ref.name}`,
      problem: 'has no name or no score method.',
      fix: 'Implement EvalScorer: a non-empty readonly name and score(trial) returning an EvalScore.',
    });
  }
  return scorer;
}
