import { compileLinearPattern, type LinearPattern } from '../core/linear-pattern.js';

/** What {@link linearSchemaPattern} returns: the pattern, or why it is refused. @internal */
export type LinearSchemaPattern =
  | { readonly ok: true; readonly pattern: LinearPattern }
  | { readonly ok: false; readonly problem: string };

const cache = new Map<string, LinearSchemaPattern>();
const maxCached = 1_000;

/**
 * A JSON Schema `pattern` (or `patternProperties` key) compiled for the
 * linear-time engine (`compileLinearPattern`), so no argument can make it
 * backtrack, or why it is refused: it must be valid with the `u` flag (the
 * dialect of JSON Schema) and use no backreference or lookaround. @internal
 */
export function linearSchemaPattern(source: string): LinearSchemaPattern {
  let result = cache.get(source);
  if (result !== undefined) return result;
  try {
    new RegExp(source, 'u'); // compiling runs nothing
    const compiled = compileLinearPattern(source);
    if (compiled.ok) result = { ok: true, pattern: compiled.pattern };
    else {
      const problem = compiled.problem.charAt(0).toUpperCase() + compiled.problem.slice(1);
      result = {
        ok: false,
        problem: `${problem}: patterns run only there, so that no argument can make them backtrack.`,
      };
    }
  } catch {
    result = { ok: false, problem: 'Must be a regular expression valid with the "u" flag.' };
  }
  if (cache.size >= maxCached) cache.clear();
  cache.set(source, result);
  return result;
}
