import { setOwnData } from '../core/set-own-data.js';

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
    const result: Record<string, JsonValue> = {};
    if (value instanceof Map) {
      for (const [key, item] of value as Map<unknown, unknown>) {
        addDumped(result, String(key), dumpValue(item, open));
      }
    } else {
      // Own enumerable string keys read one by one, as `Object.entries` would, without its pairs.
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) addDumped(result, key, dumpValue(record[key], open));
    }
    return result;
  } finally {
    open.pop();
  }
}

/** Sets `name` on `result` unless `dumped` is undefined, as an own data property whatever its name. */
function addDumped(
  result: Record<string, JsonValue>,
  name: string,
  dumped: JsonValue | undefined,
): void {
  if (dumped !== undefined) setOwnData(result, name, dumped);
}
