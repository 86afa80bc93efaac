import { createRequire } from 'node:module';

import type * as Re2js from 're2js';
import type { RE2JS, RE2JSSyntaxException } from 're2js';

let loaded: typeof Re2js | undefined;

/**
 * The re2js engine, loaded when the first pattern is compiled: most
 * applications compile none, and loading it took several percent of the CPU
 * time of importing affordance. Its CommonJS build, so that loading stays
 * synchronous.
 */
function re2js(): typeof Re2js {
  loaded ??= createRequire(import.meta.url)('re2js') as typeof Re2js;
  return loaded;
}

/** A compiled pattern that finds a match in time linear in the text. */
export interface LinearPattern {
  /** Whether `text` contains a match (anywhere, as `RegExp.prototype.test` without the `g` flag). */
  test(text: string): boolean;
}

/** Options of {@link compileLinearPattern}. */
export interface LinearPatternOptions {
  /** Match letters regardless of case (the `i` flag). Default `false`. */
  readonly ignoreCase?: boolean | undefined;
  /**
   * Most instructions the compiled pattern may have; default 500. Matching
   * takes time linear in the text times this size, and counted repetitions
   * (`x{500}`) multiply it. Measured with re2js 2.10 on 1 MiB of 1,000-character
   * lines: `\p{L}{490}[0-9]` (493 instructions) scans at about 0.4 s per MiB,
   * `\p{L}{700}[0-9]` (703) at 32 s per MiB — the engine's fast path gives out
   * in between, hence 500.
   */
  readonly maxProgramSize?: number | undefined;
}

/** Why {@link compileLinearPattern} refused a pattern. */
export type LinearPatternRefusal = 'backreference' | 'lookaround' | 'invalid' | 'too-complex';

/**
 * What {@link compileLinearPattern} returns: the pattern, or why it was
 * refused (`problem` is one sentence without a final period, naming the
 * construct at fault, e.g. `the pattern uses a backreference '\1', which ...`).
 */
export type CompiledLinearPattern =
  | { readonly ok: true; readonly pattern: LinearPattern }
  | { readonly ok: false; readonly refusal: LinearPatternRefusal; readonly problem: string };

const defaultMaxProgramSize = 500;
const shownFragment = 40;
const engine = 'the linear-time regular expression engine (RE2 syntax)';

/**
 * Compiles a regular expression written in JavaScript syntax for RE2 (the
 * `re2js` engine), which matches in time linear in the text: no input can
 * make it backtrack, so a pattern from outside the application (a model's,
 * a remote server's) cannot hang the process. Backreferences and lookaround,
 * which RE2 cannot run in linear time, are refused, as are invalid patterns
 * and patterns that compile to more than `maxProgramSize` instructions.
 * RE2's classes are ASCII where JavaScript's are wider: `\s` is
 * `[\t\n\f\r ]`, and `.` also matches `\r`, U+2028 and U+2029.
 *
 * @example
 * const compiled = compileLinearPattern('^(a+)+$');
 * if (compiled.ok) compiled.pattern.test('a'.repeat(10_000) + '!'); // false, at once
 */
export function compileLinearPattern(
  source: string,
  options: LinearPatternOptions = {},
): CompiledLinearPattern {
  const unsupported = findUnsupported(source);
  if (unsupported !== undefined) return unsupported;
  const { RE2JS, RE2JSException, RE2JSSyntaxException } = re2js();
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(
      RE2JS.translateRegExp(source),
      options.ignoreCase === true ? RE2JS.CASE_INSENSITIVE : 0,
    );
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    const detail =
      error instanceof RE2JSSyntaxException
        ? describeSyntaxError(error)
        : cut(error.message, shownFragment * 2);
    return refuse('invalid', `the pattern is not a valid regular expression (${detail})`);
  }
  const size = compiled.programSize();
  const limit = options.maxProgramSize ?? defaultMaxProgramSize;
  if (size > limit) {
    const problem = `the pattern is too complex: it compiles to ${size} instructions; the limit is ${limit}`;
    return refuse('too-complex', problem);
  }
  return { ok: true, pattern: compiled };
}

function refuse(refusal: LinearPatternRefusal, problem: string): CompiledLinearPattern {
  return { ok: false, refusal, problem };
}

/** The first backreference or lookaround in `pattern`, refused. */
function findUnsupported(pattern: string): CompiledLinearPattern | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && next >= '1' && next <= '9') return backreference(`\\${next}`);
      if (!inClass && next === 'k' && pattern[i + 2] === '<') return backreference('\\k<name>');
      i++;
    } else if (inClass) {
      if (char === ']') inClass = false;
    } else if (char === '[') {
      inClass = true;
    } else if (char === '(' && pattern[i + 1] === '?') {
      const kind = pattern.slice(i + 2, i + 4);
      if (kind.startsWith('=') || kind.startsWith('!')) {
        return lookaround(`lookahead '${pattern.slice(i, i + 3)}...)'`);
      }
      if (kind === '<=' || kind === '<!') {
        return lookaround(`lookbehind '${pattern.slice(i, i + 4)}...)'`);
      }
    }
  }
  return undefined;
}

function backreference(written: string): CompiledLinearPattern {
  return refuse(
    'backreference',
    `the pattern uses a backreference '${written}', which ${engine} does not support`,
  );
}

function lookaround(written: string): CompiledLinearPattern {
  return refuse('lookaround', `the pattern uses a ${written}, which ${engine} does not support`);
}

function describeSyntaxError(error: RE2JSSyntaxException): string {
  const input = error.getPattern();
  const description = cut(error.getDescription(), shownFragment * 2);
  return input === null || input === ''
    ? description
    : `${description}: ${cut(input, shownFragment)}`;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
