import { RE2JS, RE2JSException, RE2JSSyntaxException } from 're2js';

/** Tests one line of text. @internal */
export interface LineMatcher {
  /** Whether the line contains a match. */
  test(line: string): boolean;
}

/**
 * Bounds on a grep pattern. RE2 matches in time linear in the text, times
 * the size of the compiled program; counted repetitions (`x{500}`) multiply
 * that size, so it is capped. Measured with re2js 2.10 on 1 MiB of 1,000-character
 * lines: `\p{L}{490}[0-9]` (493 instructions) scans at about 0.4 s per MiB,
 * `\p{L}{700}[0-9]` (703) at 32 s per MiB — the engine's fast path gives out
 * in between, hence 500. @internal
 */
export const grepPatternLimits = Object.freeze({
  /** Most instructions the compiled pattern may have. */
  maxProgramSize: 500,
});

/** A compiled grep pattern, or why it was refused. @internal */
export type CompiledGrepPattern =
  | { readonly ok: true; readonly matcher: LineMatcher }
  | { readonly ok: false; readonly problem: string };

const shownFragment = 40;

/**
 * Compiles a regular expression written in JavaScript syntax for RE2 (the
 * `re2js` engine), which matches in linear time: no input can make it
 * backtrack. Backreferences and lookaround, which RE2 cannot run in linear
 * time, are refused with a message saying what to write instead, as are
 * invalid patterns and patterns beyond {@link grepPatternLimits}. @internal
 */
export function compileGrepPattern(pattern: string, ignoreCase: boolean): CompiledGrepPattern {
  const unsupported = findUnsupported(pattern);
  if (unsupported !== undefined) return { ok: false, problem: unsupported };
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(
      RE2JS.translateRegExp(pattern),
      ignoreCase ? RE2JS.CASE_INSENSITIVE : 0,
    );
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    const detail =
      error instanceof RE2JSSyntaxException
        ? describeSyntaxError(error)
        : cut(error.message, shownFragment * 2);
    return {
      ok: false,
      problem: `the pattern is not a valid regular expression (${detail}). Escape special characters such as ( [ . * with a backslash.`,
    };
  }
  const size = compiled.programSize();
  if (size > grepPatternLimits.maxProgramSize) {
    return {
      ok: false,
      problem: `the pattern is too complex: it compiles to ${size} instructions; the limit is ${grepPatternLimits.maxProgramSize}. Counted repetitions such as {500} multiply its size: search for a shorter pattern.`,
    };
  }
  return { ok: true, matcher: compiled };
}

/** Names the first backreference or lookaround in `pattern`, with what to write instead. */
function findUnsupported(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && /^[1-9]$/.test(next)) return backreference(`\\${next}`);
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

function backreference(written: string): string {
  return `the pattern uses a backreference '${written}', which the linear-time regular expression engine (RE2 syntax) does not support. Search for the repeated text itself, or for its first part and read the lines found.`;
}

function lookaround(written: string): string {
  return `the pattern uses a ${written}, which the linear-time regular expression engine (RE2 syntax) does not support. Match the surrounding text directly instead: 'foo(?=bar)' becomes 'foobar'.`;
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
