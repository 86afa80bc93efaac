import type { JsonValue as Json } from '../../src/schema/dump.js';

type Schema = Readonly<Record<string, unknown>>;

/**
 * Rewrites a payload written for a standard schema the way a model answering
 * an OpenAI strict schema would: every property the schema declares and the
 * payload leaves out is sent as `null`, at every level (`$ref`s and
 * `anyOf`s followed).
 */
export function toStrictPayload(schema: Schema, payload: Json): Json {
  return fill(schema, schema, payload);
}

function fill(root: Schema, schema: Schema, value: Json): Json {
  const resolved = resolve(root, schema);
  if (Array.isArray(value)) {
    const items = resolved['items'] as Schema | undefined;
    return items === undefined ? value : value.map((item) => fill(root, items, item));
  }
  if (value === null || typeof value !== 'object') return value;
  const properties = resolved['properties'] as Record<string, Schema> | undefined;
  if (properties === undefined) return value;
  const result: Record<string, Json> = {};
  for (const [key, property] of Object.entries(properties)) {
    const item = value[key];
    result[key] = item === undefined ? null : fill(root, property, item);
  }
  return result;
}

function resolve(root: Schema, schema: Schema): Schema {
  const anyOf = schema['anyOf'] as Schema[] | undefined;
  if (anyOf !== undefined) {
    const branch = anyOf.find((s) => s['type'] !== 'null');
    return branch === undefined ? schema : resolve(root, branch);
  }
  const ref = schema['$ref'];
  if (typeof ref !== 'string') return schema;
  if (ref === '#') return root;
  const name = ref.replace('#/$defs/', '');
  return (root['$defs'] as Record<string, Schema>)[name] ?? {};
}
