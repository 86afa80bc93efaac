import type {
  AffordanceRuntime,
  PromptResponse,
  ProviderAdapter,
  Session,
  ToolInvoked,
} from '../index.js';
import type { EvalScore } from './eval-report.js';

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

/** Token usage of a trial, zeros when the provider reported none. */
export interface EvalUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

/**
 * What a scorer sees of one trial: the case, the answer, the recorded
 * `ToolInvoked` events of the trial's session, the session itself and the
 * measures. When the run failed, `error` is set and `response` is undefined.
 */
export interface EvalObservation {
  /** The case this trial ran. */
  readonly evalCase: EvalCase;
  /** The trial's number, from 1. */
  readonly trial: number;
  /** The answer text, or the structured output as JSON text; null when the run failed. */
  readonly answer: string | null;
  /** The structured output, when the prompt has one. */
  readonly output: unknown;
  /** The evaluation's response; undefined when the run failed. */
  readonly response: PromptResponse | undefined;
  /** The `ToolInvoked` events the trial's session recorded, in order. */
  readonly toolCalls: readonly ToolInvoked[];
  /** The trial's session (its events and state). */
  readonly session: Session;
  /** The run's failure message (thrown, deadline), if it failed. */
  readonly error: string | undefined;
  /** How long the run took, in milliseconds. */
  readonly durationMs: number;
  /** Provider requests made. */
  readonly turns: number;
  /** Tokens used. */
  readonly usage: EvalUsage;
  /** The runtime the suite ran on (a judge evaluates its own prompt with it). */
  readonly runtime: AffordanceRuntime;
  /** The adapter the trial ran with, when the suite chose one per trial. */
  readonly adapter: ProviderAdapter | undefined;
}

/**
 * A scorer: gives one {@link EvalScore} (0..1, passed, a readable reason) per
 * trial. Built-in ones come from functions (`answerContains`, `calledInOrder`,
 * `llmJudge`, ...); a custom one is a class implementing this interface, given
 * to a suite by its class and resolved from the runtime's container, so it
 * can take services by injection.
 *
 * @example
 * class RefundPolicyScorer implements EvalScorer {
 *   readonly name = 'refund-policy';
 *   constructor(@inject(RefundRules) private readonly rules: RefundRules) {}
 *   score(trial: EvalObservation): EvalScore {
 *     const ok = this.rules.allows(trial.output);
 *     return { scorer: this.name, score: ok ? 1 : 0, passed: ok, reason: ok ? 'within policy' : 'refund not allowed' };
 *   }
 * }
 */
export interface EvalScorer {
  /** Unique within a suite's scorers of one case: the name results are grouped by. */
  readonly name: string;
  /** Scores one trial. Throwing fails the score with the error's message as its reason. */
  score(trial: EvalObservation): EvalScore | Promise<EvalScore>;
}

/** A class of scorers, resolved from the runtime's container (its constructor may take injected services). */
export type EvalScorerClass = new (...args: never[]) => EvalScorer;

/** A scorer, or a class of one to resolve from the runtime's container. */
export type EvalScorerRef = EvalScorer | EvalScorerClass;
