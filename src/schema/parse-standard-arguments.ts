import { describeThrown } from '../core/errors/describe-thrown.js';
import {
  ToolValidationError,
  type ToolValidationIssue,
} from '../core/errors/tool-validation-error.js';
import { isThenable } from '../core/is-thenable.js';
import { joinFieldPath, joinIndexPath } from './field-path.js';
import { acceptsNull } from './project-json-schema.js';
import { defineData, isPlainObject } from './plain-object.js';
import { maxArgumentDepth } from './screen-arguments.js';
import type {
  StandardSchemaPathSegment,
  StandardSchemaResult,
  StandardSchemaV1,
} from './standard-schema.js';
import { decodeArguments } from './decode-arguments.js';

type Schema = Record<string, unknown>;

/**
 * Parses a tool call's arguments (JSON text or a decoded value) with a
 * Standard Schema: the validated output value, at once or as a promise when
 * the schema validates asynchronously. With `strictSource` (the library's JSON
 * Schema, when the model was shown its `openai-strict` projection) a `null`
 * for an optional property that does not itself accept `null` is removed
 * first, as `normalizeStrictArguments` does for a params class.
 *
 * @throws ToolValidationError with every issue and its path (`address.zip`,
 * `items[2].name`), the same format as a params class's.
 * @internal
 */
export function parseStandardArguments<T>(
  schema: StandardSchemaV1<unknown, T>,
  raw: unknown,
  strictSource: Schema | undefined,
): T | Promise<T> {
  const decoded = decodeArguments(raw);
  // What JSON.parse makes of text is plain whenever it is a non-array object: no prototype to read.
  const object =
    typeof raw === 'string'
      ? typeof decoded === 'object' && decoded !== null && !Array.isArray(decoded)
      : isPlainObject(decoded);
  if (!object) {
    throw new ToolValidationError(`Arguments must be a JSON object; got ${kindOf(decoded)}.`);
  }
  const value =
    strictSource === undefined ? decoded : stripStrictNulls(strictSource, decoded, strictSource, 1);
  let result: StandardSchemaResult<T> | Promise<StandardSchemaResult<T>>;
  try {
    result = schema['~standard'].validate(value);
  } catch (error) {
    throw failedToValidate(error);
  }
  if (!isThenable(result)) return outputOf(result);
  return result.then(outputOf, (error: unknown) => {
    throw failedToValidate(error);
  });
}

function outputOf<T>(result: StandardSchemaResult<T>): T {
  if (result.issues === undefined) return result.value;
  const issues: ToolValidationIssue[] = result.issues.map((issue) => ({
    path: issuePath(issue.path ?? []),
    message: issue.message,
  }));
  if (issues.length === 0) issues.push({ path: '', message: 'is invalid' });
  throw new ToolValidationError(issues);
}

/** A Standard Schema issue path in the package's format: dotted keys, bracketed indexes. @internal */
export function issuePath(segments: readonly StandardSchemaPathSegment[]): string {
  let path = '';
  for (const segment of segments) {
    const key = typeof segment === 'object' ? segment.key : segment;
    path = typeof key === 'number' ? joinIndexPath(path, key) : joinFieldPath(path, String(key));
  }
  return path;
}

function failedToValidate(error: unknown): ToolValidationError {
  return new ToolValidationError(`Arguments could not be validated: ${describeThrown(error)}`, {
    cause: error,
  });
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'a non-plain object' : `a ${typeof value}`;
}

/** Follows a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`) to its schema. */
function resolve(schema: Schema, root: Schema): Schema {
  const ref = schema['$ref'];
  if (typeof ref !== 'string') return schema;
  if (ref === '#') return root;
  const [, group, name] = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref) ?? [];
  const defs = group === undefined ? undefined : root[group];
  const target = isPlainObject(defs) && name !== undefined ? defs[name] : undefined;
  return isPlainObject(target) ? target : schema;
}

/**
 * `value` without the `null`s the strict profile sent for absent optional
 * properties: a copy where something was removed, at any depth; `value`
 * itself (no copy) where nothing was. @internal
 */
export function stripStrictNulls(
  schema: Schema,
  value: unknown,
  root: Schema,
  depth: number,
): unknown {
  if (depth > maxArgumentDepth) return value;
  const resolved = resolve(schema, root);
  const items = resolved['items'];
  if (Array.isArray(value)) {
    if (!isPlainObject(items)) return value;
    const mapped = value.map((item: unknown) => stripStrictNulls(items, item, root, depth + 1));
    return mapped.some((item, index) => item !== value[index]) ? mapped : value;
  }
  const properties = resolved['properties'];
  if (!isPlainObject(value) || !isPlainObject(properties)) return value;
  const required = Array.isArray(resolved['required']) ? resolved['required'] : [];
  const keys = Object.keys(value);
  // Built only once a key is dropped or changed: most calls send nothing to strip.
  let copy: Record<string, unknown> | undefined;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const item = value[key];
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    let next: unknown = item;
    let drop = false;
    if (isPlainObject(property) && (item === null || typeof item === 'object')) {
      if (item === null) drop = !required.includes(key) && !acceptsNull(resolve(property, root));
      else next = stripStrictNulls(property, item, root, depth + 1);
    }
    if (copy === undefined && (drop || next !== item)) {
      copy = {};
      for (const earlier of keys.slice(0, index)) defineData(copy, earlier, value[earlier]);
    }
    if (copy !== undefined && !drop) defineData(copy, key, next);
  }
  return copy ?? value;
}
