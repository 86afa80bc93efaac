import type { Class } from '../core/class-type.js';
import { type ParamsShape, readParamsShape } from './params-shape.js';
import { defineData, isPlainObject } from './plain-object.js';
import { maxArgumentDepth } from './screen-arguments.js';
import { isStandardSchema, type StandardSchemaV1 } from './standard-schema.js';
import { standardSchemaParamsOf } from './standard-schema-params.js';

/**
 * Undoes what the `openai-strict` schema profile asks of the model: there every
 * optional field is required and nullable, so the model sends `null` to mean
 * "absent". This removes the key of every optional field whose value is
 * `null`, at every level of nested params classes (arrays of them included),
 * so handlers see the same value whichever profile was used.
 *
 * Optional means that absence skips validation: `@IsOptional()`, or a
 * `@ValidateIf` that returns false when the field is `undefined`. A field that
 * is nullable but required (`@ValidateIf((o) => o.x !== null)`, which still
 * validates an absent value) keeps its `null`.
 *
 * Never throws and never mutates `value`: anything it does not recognise is
 * returned as is, and changed objects are fresh copies (keys such as
 * `__proto__` are kept as plain data for the parser to reject).
 *
 * For a Standard Schema, optional means outside `required` in the library's
 * JSON Schema, for a property whose schema does not itself accept `null`.
 */
export function normalizeStrictArguments(
  paramsType: (abstract new (...args: never[]) => unknown) | StandardSchemaV1,
  value: unknown,
): unknown {
  try {
    if (isStandardSchema(paramsType)) {
      return standardSchemaParamsOf(paramsType).normalizeStrict(value);
    }
    return normalizeObject(readParamsShape(paramsType), value, 1);
  } catch {
    return value;
  }
}

function normalizeObject(shape: ParamsShape, value: unknown, depth: number): unknown {
  if (!isPlainObject(value) || depth > maxArgumentDepth) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = value[key];
    const field = shape.fields.get(key);
    if (field !== undefined && item === null && field.optional) continue;
    const nested = field?.nested;
    defineData(copy, key, nested === undefined ? item : normalizeNested(nested, item, depth + 1));
  }
  return copy;
}

function normalizeNested(cls: Class, value: unknown, depth: number): unknown {
  const shape = readParamsShape(cls);
  if (!Array.isArray(value)) return normalizeObject(shape, value, depth);
  if (depth > maxArgumentDepth) return value;
  return value.map((item: unknown) => normalizeObject(shape, item, depth + 1));
}
