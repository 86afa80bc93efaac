import type { JsonValue } from './dump.js';

/** A JSON Schema (or subschema) while it is being built. @internal */
export type MutableSchema = Record<string, JsonValue>;

/** A JSON Schema `type` name. @internal */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

/** Adds `null` to what a schema accepts, keeping its keyword order. @internal */
export function withNull(schema: MutableSchema): MutableSchema {
  if ('$ref' in schema) return { anyOf: [schema, { type: 'null' }] };
  const type = schema['type'];
  if (type === undefined) return schema;
  const result: MutableSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'type') {
      result['type'] = Array.isArray(value) ? [...value, 'null'] : [value, 'null'];
    } else if (keyword === 'enum' && Array.isArray(value)) {
      result['enum'] = value.includes(null) ? value : [...value, null];
    } else if (keyword === 'const') {
      result['enum'] = value === null ? [null] : [value, null];
    } else {
      result[keyword] = value;
    }
  }
  return result;
}
