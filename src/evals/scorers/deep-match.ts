import { isDeepStrictEqual } from 'node:util';

/**
 * Where `actual` differs from the partial object `expected`: each field of
 * `expected` must be present in `actual` and deep-equal to it (a nested plain
 * object is matched partially in turn). Returns the first mismatch as
 * readable text, or undefined when it matches.
 */
export function partialMismatch(
  actual: unknown,
  expected: Readonly<Record<string, unknown>>,
  path = '',
): string | undefined {
  if (actual === null || typeof actual !== 'object') {
    return `${path === '' ? 'the value' : path} is ${actual === null ? 'null' : typeof actual}, not an object`;
  }
  const record = actual as Record<string, unknown>;
  for (const [key, want] of Object.entries(expected)) {
    const at = path === '' ? key : `${path}.${key}`;
    const got = record[key];
    if (isPlainObject(want)) {
      const inner = partialMismatch(got, want, at);
      if (inner !== undefined) return inner;
    } else if (!isDeepStrictEqual(plain(got), want)) {
      return `${at} is ${(JSON.stringify(got) as string | undefined) ?? 'undefined'}, expected ${(JSON.stringify(want) as string | undefined) ?? 'undefined'}`;
    }
  }
  return undefined;
}

/** The value at a dotted path (`'customer.email'`, `'items.0.sku'`), or undefined. */
export function valueAt(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = Object.hasOwn(current, part) ? (current as Record<string, unknown>)[part] : undefined;
  }
  return current;
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Class instances compared by their fields (an output or params instance against a JSON value). */
function plain(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  return JSON.parse(JSON.stringify(value)) as unknown;
}
