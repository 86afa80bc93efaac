/** How deep a value is followed before the rest is written as a marker. */
const MAX_DEPTH = 32;

/**
 * `value` as plain JSON for an export: strings, finite numbers, booleans and
 * `null` as they are; `undefined` as `null`; a `Date` as its ISO string; a
 * `Map` as `[key, value]` pairs; a `Set` and any array as an array; any other
 * object (a class instance included) as its own enumerable fields. What JSON
 * has no form for (a function, a symbol, a bigint, a non-finite number, a
 * cycle, nesting past 32 levels) becomes a bracketed note. Never throws: a
 * getter that throws becomes a note too.
 */
export function toExportJson(value: unknown): unknown {
  return walk(value, new Set(), 0);
}

function walk(value: unknown, open: Set<object>, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : `[${String(value)}]`;
    case 'undefined':
      return null;
    case 'bigint':
      return `${value.toString()}n`;
    case 'symbol':
      return `[${value.toString()}]`;
    case 'function':
      return `[function ${value.name || '(anonymous)'}]`;
    case 'object':
      break;
  }
  if (value === null) return null;
  const object = value;
  if (object instanceof Date) {
    return Number.isNaN(object.getTime()) ? '[invalid Date]' : object.toISOString();
  }
  if (open.has(object)) return '[cycle]';
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  open.add(object);
  try {
    if (Array.isArray(object)) return object.map((item) => walk(item, open, depth + 1));
    if (object instanceof Map) {
      return [...object].map(([key, item]) => [
        walk(key, open, depth + 1),
        walk(item, open, depth + 1),
      ]);
    }
    if (object instanceof Set) return [...object].map((item) => walk(item, open, depth + 1));
    const fields: Record<string, unknown> = {};
    for (const key of Object.keys(object)) {
      let item: unknown;
      try {
        item = (object as Record<string, unknown>)[key];
      } catch (error) {
        item = `[unreadable: ${error instanceof Error ? error.message : String(error)}]`;
      }
      Object.defineProperty(fields, key, {
        value: walk(item, open, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return fields;
  } catch (error) {
    return `[unreadable: ${error instanceof Error ? error.message : String(error)}]`;
  } finally {
    open.delete(object);
  }
}
