import type { JsonValue } from './dump.js';
import type { JsonType } from './mutable-schema.js';

/** The distinct values of `values` if it is an array of JSON scalars, else `undefined`. @internal */
export function jsonScalars(values: unknown): JsonValue[] | undefined {
  if (!Array.isArray(values) || !values.every(isJsonScalar)) return undefined;
  return [...new Set(values as JsonValue[])];
}

/** Whether `value` is a JSON scalar: `null`, a string, a boolean or a finite number. @internal */
export function isJsonScalar(value: unknown): value is string | number | boolean | null {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** The JSON Schema type of `value`; whole numbers are `integer`. @internal */
export function jsonTypeOf(value: JsonValue): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return 'object';
}
