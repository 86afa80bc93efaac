import type {
  AffordanceRuntime,
  PromptResponse,
  ProviderAdapter,
  Session,
  ToolInvoked,
} from '../index.js';
import type { EvalCase } from './eval-case.js';
import type { EvalScore } from './eval-report.js';

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

/** A pass/fail score: 1 and passed, or 0 and failed, with its reason. */
export function passFail(scorer: string, passed: boolean, reason: string): EvalScore {
  return { scorer, score: passed ? 1 : 0, passed, reason };
}

/** A value as short readable text for a reason (JSON, cut to 120 characters). */
export function shown(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else {
    try {
      text = value === undefined ? 'undefined' : JSON.stringify(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
