import {
  type AffordanceRuntime,
  ConfigurationError,
  type Deadline,
  type Prompt,
  type PromptResponse,
  type ProviderAdapter,
  type Session,
} from '../index.js';
import { EVAL_CASE_ID_PATTERN, type EvalCase } from './eval-case.js';
import type { EvalScorerRef } from './eval-case.js';

/** What a suite's `run` function gets for one trial. */
export interface EvalRunContext {
  /** The runtime the suite runs on. */
  readonly runtime: AffordanceRuntime;
  /** The trial's session: pass it to `runtime.evaluate` so its events are scored and kept. */
  readonly session: Session;
  /** The case's deadline: pass it to `runtime.evaluate`. */
  readonly deadline: Deadline;
  /** Aborts at the deadline. */
  readonly signal: AbortSignal;
  /** The adapter the suite chose for this trial (`adapter` option), if any. */
  readonly adapter: ProviderAdapter | undefined;
  /** The trial's number, from 1. */
  readonly trial: number;
}

/** A function running one trial of a case: usually one `runtime.evaluate` with the context's session and deadline. */
export type EvalRun = (evalCase: EvalCase, context: EvalRunContext) => Promise<PromptResponse>;

/** Prices to estimate each trial's cost with, in US dollars per million tokens. */
export interface EvalPrices {
  readonly inputPerMillionTokens: number;
  readonly outputPerMillionTokens: number;
}

/** The fields of {@link defineEvalSuite}. Give `prompt` or `run`, not both. */
export interface EvalSuiteInit {
  /** The suite's name (in the report and the progress line). */
  readonly name: string;
  /** The prompt every case evaluates, with the case's `input` and `params`. */
  readonly prompt?: Prompt;
  /** Instead of `prompt`: runs one trial (a prompt of your choice, several evaluations, a resume...). */
  readonly run?: EvalRun;
  /** The cases, in TypeScript or from `loadEvalCases(path)`. */
  readonly cases: readonly EvalCase[];
  /** Scorers applied to every case (before each case's expectations and own scorers). */
  readonly scorers?: readonly EvalScorerRef[];
  /** The runtime to run on when `runEvalSuite` is given none (what the CLI uses); a function is called once per run. */
  readonly runtime?: AffordanceRuntime | (() => AffordanceRuntime | Promise<AffordanceRuntime>);
  /** An adapter per trial (e.g. a `ScriptedAdapter` with the case's script); the container's by default. */
  readonly adapter?: (evalCase: EvalCase, trial: number) => ProviderAdapter;
  /** Prices per million tokens: each trial then gets a `costUsd`. */
  readonly prices?: EvalPrices;
}

/** A checked, frozen eval suite (see {@link defineEvalSuite}). */
export interface EvalSuite extends EvalSuiteInit {
  readonly cases: readonly EvalCase[];
  readonly scorers: readonly EvalScorerRef[];
}

/**
 * Defines an eval suite: a prompt (or a `run` function) and its cases, each
 * with what it expects. Checks the suite at once: a name, `prompt` or `run`,
 * at least one case, unique valid case ids.
 *
 * @example
 * export default defineEvalSuite({
 *   name: 'support-desk',
 *   prompt: supportPrompt,
 *   runtime: () => createRuntime(),
 *   cases: [
 *     { id: 'refund', input: 'Refund order A-17?', expected: { calls: [{ tool: 'lookup_order' }], contains: 'refund' } },
 *   ],
 * });
 * @throws ConfigurationError naming the problem and the case.
 */
export function defineEvalSuite(init: EvalSuiteInit): EvalSuite {
  const subject = `Eval suite '${init.name}'`;
  if (typeof init.name !== 'string' || init.name.trim() === '') {
    throw new ConfigurationError({
      subject: 'Eval suite',
      problem: 'has no name.',
      fix: "Give it one, e.g. defineEvalSuite({ name: 'support-desk', ... }).",
    });
  }
  if ((init.prompt === undefined) === (init.run === undefined)) {
    throw new ConfigurationError({
      subject,
      problem:
        init.prompt === undefined ? 'has neither prompt nor run.' : 'has both prompt and run.',
      fix: 'Give the prompt to evaluate, or a run function that evaluates it (not both).',
    });
  }
  if (init.cases.length === 0) {
    throw new ConfigurationError({
      subject,
      problem: 'has no cases.',
      fix: "Add at least one case, e.g. cases: [{ id: 'greeting', input: 'Hello' }].",
    });
  }
  const seen = new Set<string>();
  for (const [index, evalCase] of init.cases.entries()) {
    checkCaseId(subject, evalCase, index, seen);
  }
  return Object.freeze({
    ...init,
    cases: Object.freeze([...init.cases]),
    scorers: Object.freeze([...(init.scorers ?? [])]),
  });
}

function checkCaseId(subject: string, evalCase: EvalCase, index: number, seen: Set<string>): void {
  const id: unknown = evalCase.id;
  if (typeof id !== 'string' || !EVAL_CASE_ID_PATTERN.test(id)) {
    throw new ConfigurationError({
      subject: `${subject}, case ${index + 1}`,
      problem: `has the id ${(JSON.stringify(id) as string | undefined) ?? 'undefined'}, which is not 1 to 128 letters, digits, '.', '_' or '-'.`,
      fix: "Give each case an id like 'refund-late-order'.",
    });
  }
  if (seen.has(id)) {
    throw new ConfigurationError({
      subject: `${subject}, case ${index + 1}`,
      problem: `repeats the id '${id}'.`,
      fix: 'Give each case its own id: a comparison matches cases by id.',
    });
  }
  seen.add(id);
}
