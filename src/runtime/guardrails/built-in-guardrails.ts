import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { compileLinearPattern, type LinearPattern } from '../../core/linear-pattern.js';
import {
  type AnswerCheck,
  type AnswerPolicy,
  type AnswerVerdict,
  Guardrail,
  type InputCheck,
  type InputPolicy,
  type InputVerdict,
} from '../../prompt/guardrail-policy.js';

/**
 * An input policy refusing input longer than `maxChars` characters (UTF-16
 * code units), before any request is made.
 */
export function maxInputSize(maxChars: number): InputPolicy {
  if (!Number.isInteger(maxChars) || maxChars < 1) {
    throw new ConfigurationError({
      subject: 'maxInputSize',
      problem: `maxChars must be a whole number of at least 1, got ${String(maxChars)}.`,
      fix: 'Pass the most characters an input may have, e.g. maxInputSize(20_000).',
    });
  }
  return {
    name: 'maxInputSize',
    checkInput: ({ input }: InputCheck): InputVerdict =>
      input.length <= maxChars
        ? Guardrail.allow()
        : Guardrail.refuse(
            `The input has ${input.length} characters; at most ${maxChars} are accepted. Shorten it and try again.`,
          ),
  };
}

/** Options of {@link denyInputPatterns}. */
export interface DenyInputPatternsOptions {
  /** Match letters regardless of case. Default `false`. */
  readonly ignoreCase?: boolean | undefined;
  /** The message the caller gets; by default it names the pattern's position in the list. */
  readonly message?: string | undefined;
}

/**
 * An input policy refusing input that matches any of `patterns` (JavaScript
 * regular-expression syntax), run on the linear-time engine (see
 * `compileLinearPattern`): no input can make it backtrack. A pattern the
 * engine cannot run (a backreference, lookaround, an invalid or too complex
 * one) is refused here, when the policy is built.
 */
export function denyInputPatterns(
  patterns: readonly string[],
  options: DenyInputPatternsOptions = {},
): InputPolicy {
  const compiled: LinearPattern[] = patterns.map((source, index) => {
    const result = compileLinearPattern(source, { ignoreCase: options.ignoreCase });
    if (result.ok) return result.pattern;
    throw new ConfigurationError({
      subject: `denyInputPatterns patterns[${index}]`,
      problem: `${result.problem}.`,
      fix: 'Rewrite the pattern without backreferences or lookaround, or split it into simpler patterns.',
    });
  });
  return {
    name: 'denyInputPatterns',
    checkInput: ({ input }: InputCheck): InputVerdict => {
      const hit = compiled.findIndex((pattern) => pattern.test(input));
      if (hit < 0) return Guardrail.allow();
      return Guardrail.refuse(
        options.message ??
          `The input matches denied pattern ${hit + 1} and was not sent to the model.`,
      );
    },
  };
}

/**
 * An answer policy requiring the answer to cite a result of tool `toolName`:
 * the evaluation called it successfully, and the answer's text (or its
 * structured output, as JSON) contains at least one string of three or more
 * characters, or a number, found in one of those results' values. Otherwise
 * the answer goes back to the model, asking it to call the tool and quote it.
 */
export function answerCitesToolResult(toolName: string): AnswerPolicy {
  return {
    name: `answerCitesToolResult(${toolName})`,
    checkAnswer: (check: AnswerCheck): AnswerVerdict => {
      const results = check.toolCalls.filter((call) => call.name === toolName && call.success);
      const answer = check.text ?? safeJson(check.output);
      const cited = results.some((call) =>
        citable(call.value).some((item) => answer.includes(item)),
      );
      if (cited) return Guardrail.allow();
      return Guardrail.retry(
        results.length === 0
          ? `Your answer must rest on a result of the tool '${toolName}', which you have not called successfully. Call it, then answer quoting what it returned.`
          : `Your answer must quote what the tool '${toolName}' returned (a name, an id or a figure from its result). Answer again, citing it.`,
      );
    },
  };
}

/** The strings (3+ characters) and numbers in `value`, at most 1,000 of them, 8 levels deep. */
function citable(value: unknown): string[] {
  const found: string[] = [];
  const walk = (item: unknown, depth: number): void => {
    if (found.length >= 1_000 || depth > 8) return;
    if (typeof item === 'string') {
      if (item.trim().length >= 3) found.push(item.trim());
    } else if (typeof item === 'number' && Number.isFinite(item)) {
      found.push(String(item));
    } else if (Array.isArray(item)) {
      for (const element of item) walk(element, depth + 1);
    } else if (typeof item === 'object' && item !== null) {
      for (const element of Object.values(item)) walk(element, depth + 1);
    }
  };
  try {
    walk(value, 0);
  } catch {
    // A value whose properties cannot be read cites nothing.
  }
  return found;
}

function safeJson(value: unknown): string {
  try {
    const text: unknown = JSON.stringify(value);
    return typeof text === 'string' ? text : '';
  } catch {
    return '';
  }
}
