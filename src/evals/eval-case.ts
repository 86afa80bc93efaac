import type { EvalScorerRef } from './eval-scorer.js';

/**
 * One expected tool call of {@link EvalExpectations.calls}: the tool's name and,
 * optionally, a partial object its arguments must match (every given field
 * deep-equal; fields not given are free).
 */
export interface ExpectedCall {
  /** The tool's name, as the model calls it. */
  readonly tool: string;
  /** Fields the call's arguments must have, e.g. `{ orderId: 'A-1' }`. */
  readonly arguments?: Readonly<Record<string, unknown>>;
}

/**
 * What a case expects, as plain data (the form a JSONL line can carry too).
 * Each field given becomes one built-in scorer of the case, named after it:
 * `answer-equals`, `answer-contains`, `answer-matches`, `output-fields`,
 * `calls-in-order`, `never-called`, `max-calls`, `budget`.
 */
export interface EvalExpectations {
  /** The answer text, exactly (surrounding whitespace ignored). */
  readonly answer?: string;
  /** Text the answer must contain (each of them, case-sensitive). */
  readonly contains?: string | readonly string[];
  /** A linear-time regular expression the answer must match (see `compileLinearPattern`). */
  readonly matches?: string;
  /** Fields of the structured output by dotted path (`'customer.email'`), each deep-equal to its value. */
  readonly output?: Readonly<Record<string, unknown>>;
  /** Tool calls that must happen in this order (other calls may come between them). */
  readonly calls?: readonly ExpectedCall[];
  /** Tools that must not be called. */
  readonly notCalled?: readonly string[];
  /** The most tool calls the trial may make. */
  readonly maxCalls?: number;
  /** The most tokens (input + output) the trial may use. */
  readonly maxTokens?: number;
  /** The most provider requests the trial may make. */
  readonly maxTurns?: number;
  /** The most milliseconds the trial may take. */
  readonly maxDurationMs?: number;
}

/**
 * One case of an eval suite: what the agent is given (`input`, `params`),
 * what it should do (`expected`, `scorers`), and `tags` to group results by.
 *
 * @example
 * { id: 'refund-late-order', input: 'My order A-17 arrived late, can I get a refund?',
 *   expected: { calls: [{ tool: 'lookup_order', arguments: { orderId: 'A-17' } }], contains: 'refund' },
 *   tags: ['refunds'] }
 */
export interface EvalCase {
  /** Unique within the suite: letters, digits, `.`, `_`, `-` (a comparison matches cases by id). */
  readonly id: string;
  /** The user message sent after the prompt. */
  readonly input?: string;
  /** Params instances for the prompt's sections. */
  readonly params?: readonly object[];
  /** What the case expects; each field becomes a scorer (see {@link EvalExpectations}). */
  readonly expected?: EvalExpectations;
  /** Labels to filter and group results by. */
  readonly tags?: readonly string[];
  /** Scorers of this case only, after the suite's and the expectations'. */
  readonly scorers?: readonly EvalScorerRef[];
  /** Free values for a suite's `run` function or custom scorers (e.g. a scripted model's turns). */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** Letters, digits, `.`, `_` and `-`, 1 to 128 characters: a case id. */
export const EVAL_CASE_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;
