import * as cv from 'class-validator';

import { compileLinearPattern, type LinearPattern } from '../index.js';
import { builtin, type Check } from './schema-check.js';

/**
 * A server's `pattern` as a `RegExp` that matches on the linear-time engine:
 * `exec` (through which `test`, `String.prototype.match` and class-validator's
 * `@Matches` run it, as the language defines them) asks `compileLinearPattern`'s
 * pattern, so no argument can make it backtrack. Its `source` and `u` flag are
 * the schema's, so the tool's schema shows the model the same `pattern`.
 * `exec` answers whether the text matches, not where: a match is the whole
 * text at index 0.
 */
class LinearRegExp extends RegExp {
  readonly #source: string;
  readonly #linear: LinearPattern;

  constructor(source: string, linear: LinearPattern) {
    super(source, 'u');
    this.#source = source;
    this.#linear = linear;
  }

  /** The pattern as the schema writes it (`RegExp` would escape its `/`). */
  override get source(): string {
    return this.#source;
  }

  override exec(text: string): RegExpExecArray | null {
    if (!this.#linear.test(text)) return null;
    const match: [string] = [text];
    return Object.assign(match, { index: 0, input: text });
  }
}

/**
 * The check of a schema's `pattern` keyword, or the problem that refuses the
 * tool: a pattern must be valid with the `u` flag (JSON Schema's dialect)
 * and run on the linear-time engine; a backreference or lookaround, which
 * only a backtracking engine runs, is refused rather than run by `RegExp`.
 * @internal
 */
export function patternCheck(value: unknown): Check | string {
  if (typeof value !== 'string' || !validWithU(value))
    return 'Must be a regular expression valid with the "u" flag.';
  const compiled = compileLinearPattern(value);
  if (!compiled.ok) {
    const problem = compiled.problem.charAt(0).toUpperCase() + compiled.problem.slice(1);
    return `${problem}: a server's pattern runs only there, so that no argument can make it backtrack.`;
  }
  const regExp = new LinearRegExp(value, compiled.pattern);
  return builtin((v) => typeof v === 'string' && regExp.test(v), cv.Matches, regExp);
}

/** Whether `source` compiles with the `u` flag (compiling runs nothing). */
function validWithU(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}
