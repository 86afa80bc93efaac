import {
  compileLinearPattern,
  type LinearPattern,
  type LinearPatternRefusal,
} from '../core/linear-pattern.js';

/** Tests one line of text. @internal */
export type LineMatcher = LinearPattern;

/**
 * Bounds on a grep pattern: the compiled program's size, which multiplies
 * the time RE2 takes per character (`LinearPatternOptions.maxProgramSize`
 * says how 500 was measured). @internal
 */
export const grepPatternLimits = Object.freeze({
  /** Most instructions the compiled pattern may have. */
  maxProgramSize: 500,
});

/** A compiled grep pattern, or why it was refused. @internal */
export type CompiledGrepPattern =
  | { readonly ok: true; readonly matcher: LineMatcher }
  | { readonly ok: false; readonly problem: string };

/** What a model should write instead, for each kind of refused pattern. */
const advice: Readonly<Record<LinearPatternRefusal, string>> = {
  backreference:
    'Search for the repeated text itself, or for its first part and read the lines found.',
  lookaround: "Match the surrounding text directly instead: 'foo(?=bar)' becomes 'foobar'.",
  invalid: 'Escape special characters such as ( [ . * with a backslash.',
  'too-complex':
    'Counted repetitions such as {500} multiply its size: search for a shorter pattern.',
};

/**
 * Compiles a grep pattern on the linear-time engine (`compileLinearPattern`):
 * no input can make it backtrack. Backreferences and lookaround, invalid
 * patterns and patterns beyond {@link grepPatternLimits} are refused with a
 * message saying what to write instead. @internal
 */
export function compileGrepPattern(pattern: string, ignoreCase: boolean): CompiledGrepPattern {
  const compiled = compileLinearPattern(pattern, {
    ignoreCase,
    maxProgramSize: grepPatternLimits.maxProgramSize,
  });
  if (!compiled.ok)
    return { ok: false, problem: `${compiled.problem}. ${advice[compiled.refusal]}` };
  return { ok: true, matcher: compiled.pattern };
}
