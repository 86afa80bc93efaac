import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { Session } from '../session/session.js';

/** What an {@link InputPolicy} decides about the user's input. */
export type InputVerdict =
  | { readonly kind: 'allow' }
  | { readonly kind: 'refuse'; readonly message: string }
  | { readonly kind: 'rewrite'; readonly input: string };

/** What an {@link AnswerPolicy} decides about the model's final answer. */
export type AnswerVerdict =
  | { readonly kind: 'allow' }
  | { readonly kind: 'retry'; readonly reason: string }
  | { readonly kind: 'fail'; readonly reason: string };

/** Builds guardrail verdicts. */
export const Guardrail = Object.freeze({
  /** Let the input or answer through. */
  allow: (): { readonly kind: 'allow' } => ({ kind: 'allow' }),
  /** Refuse the input: the evaluation stops before the first request; `message` reaches the caller. */
  refuse: (message: string): InputVerdict => ({ kind: 'refuse', message }),
  /** Replace the input with `input` (e.g. with personal data masked). */
  rewrite: (input: string): InputVerdict => ({ kind: 'rewrite', input }),
  /** Send the answer back to the model with `reason`, for another turn (bounded by `maxAnswerRetries`). */
  retry: (reason: string): AnswerVerdict => ({ kind: 'retry', reason }),
  /** Fail the evaluation with `reason`. */
  fail: (reason: string): AnswerVerdict => ({ kind: 'fail', reason }),
});

/** What an {@link InputPolicy} is shown. */
export interface InputCheck {
  /** The user's input, as given to `evaluate` (or as an earlier policy rewrote it). */
  readonly input: string;
  /** The prompt's label (`ns/key`). */
  readonly prompt: string;
  /** The evaluation's session. */
  readonly session: Session;
}

/** A tool call of the evaluation, as an {@link AnswerPolicy} sees it. */
export interface AnswerToolCall {
  readonly name: string;
  readonly success: boolean;
  /** The result's value (what the tool returned). */
  readonly value: unknown;
  /** The text the model read. */
  readonly message: string;
}

/** What an {@link AnswerPolicy} is shown. */
export interface AnswerCheck {
  /** The answer's text (`null` when the model sent none). */
  readonly text: string | null;
  /** The structured output, when the prompt has one. */
  readonly output: unknown;
  /** The evaluation's tool calls so far, in order. */
  readonly toolCalls: readonly AnswerToolCall[];
  /** 1 for the first answer, 2 after one retry, ... */
  readonly attempt: number;
  /** The prompt's label (`ns/key`). */
  readonly prompt: string;
  /** The evaluation's session. */
  readonly session: Session;
}

/** Checks the user's input before the first request (declared on prompts and sections; see `InputPolicyRef`). */
export interface InputPolicy {
  /** Names the policy in events, traces and errors; defaults to the class name. */
  readonly name?: string | undefined;
  checkInput(check: InputCheck): InputVerdict | Promise<InputVerdict>;
}

/** Checks the model's final answer (declared on prompts and sections; see `AnswerPolicyRef`). */
export interface AnswerPolicy {
  /** Names the policy in events, traces and errors; defaults to the class name. */
  readonly name?: string | undefined;
  checkAnswer(check: AnswerCheck): AnswerVerdict | Promise<AnswerVerdict>;
}

/** An input policy, or an injectable class of one (resolved in the evaluation's container). */
export type InputPolicyRef = InputPolicy | (abstract new (...args: never[]) => InputPolicy);
/** An answer policy, or an injectable class of one (resolved in the evaluation's container). */
export type AnswerPolicyRef = AnswerPolicy | (abstract new (...args: never[]) => AnswerPolicy);

/** `given` checked as a list of guardrail refs with method `method` (the caller names the type it checked). @internal */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the ref type follows `method`
export function checkGuardrails<R>(subject: string, given: unknown, method: string): readonly R[] {
  if (given === undefined) return [];
  const ok =
    Array.isArray(given) &&
    given.every(
      (ref: unknown) =>
        typeof ref === 'function' ||
        (typeof ref === 'object' &&
          ref !== null &&
          typeof (ref as Record<string, unknown>)[method] === 'function'),
    );
  if (!ok) {
    throw new ConfigurationError({
      subject,
      problem: `every guardrail must be an object with a ${method} method, or an injectable class of one.`,
      fix: `Pass e.g. [maxInputSize(10_000)] or a class implementing ${method}.`,
    });
  }
  return Object.freeze([...(given as R[])]);
}
