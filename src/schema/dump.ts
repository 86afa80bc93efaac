/** A JSON value as `dump` produces it. */
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * Converts a result value (class instances, arrays, maps, sets, dates) into
 * plain JSON data, dropping `null` and `undefined` fields and items at every
 * depth. Field order follows the object's own property order, so the same
 * value always dumps to the same JSON. Dates become ISO strings, `Map`s
 * objects, `Set`s arrays, bigints strings; functions and symbols are dropped;
 * an object with `toJSON()` is dumped from what `toJSON()` returns.
 *
 * @throws TypeError when the value contains a cycle.
 */
export function dump(value: unknown): JsonValue | undefined {
  return dumpValue(value, []);
}

/** `open`: the objects being dumped, outermost first (the path to the current one). */
function dumpValue(value: unknown, open: object[]): JsonValue | undefined {
  if (value === null || value === undefined) return undefined;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      return value.toString();
    case 'object':
      return dumpObject(value, open);
    case 'function':
    case 'symbol':
    case 'undefined':
      return undefined;
  }
  return undefined;
}

function dumpObject(value: object, open: object[]): JsonValue | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  if (open.includes(value))
    throw new TypeError('dump() cannot serialise a value that contains a cycle.');
  open.push(value);
  try {
    if (Array.isArray(value) || value instanceof Set) {
      const items: JsonValue[] = [];
      for (const item of value as Iterable<unknown>) {
        const dumped = dumpValue(item, open);
        if (dumped !== undefined) items.push(dumped);
      }
      return items;
    }
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return dumpValue(toJSON.call(value), open);
    const entries: Iterable<[unknown, unknown]> =
      value instanceof Map ? value.entries() : Object.entries(value);
    const result: Record<string, JsonValue> = {};
    for (const [key, item] of entries) {
      const dumped = dumpValue(item, open);
      if (dumped === undefined) continue;
      const name = String(key);
      // defineProperty keeps `__proto__` a plain data key; any other key is assigned.
      if (name === '__proto__') {
        Object.defineProperty(result, name, {
          value: dumped,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else result[name] = dumped;
    }
    return result;
  } finally {
    open.pop();
  }
}
