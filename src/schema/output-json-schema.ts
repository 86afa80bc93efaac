import type { JsonValue } from './dump.js';
import type { JsonSchema, SchemaProfile } from './params-json-schema.js';
import { defineData } from './plain-object.js';
import { toJsonSchema } from './to-json-schema.js';
import { deepFreeze } from '../core/deep-freeze.js';
import type { Class } from '../core/class-type.js';
import { isStandardSchema, type StandardSchemaV1 } from './standard-schema.js';

type MutableSchema = Record<string, JsonValue>;

const arrayCache = new WeakMap<Class | StandardSchemaV1, Map<SchemaProfile, JsonSchema>>();

/** Keywords whose value is a map of names to subschemas. */
const schemaMaps = new Set(['properties', 'patternProperties', '$defs', 'definitions']);
/** Keywords whose value is one subschema. */
const schemaValues = new Set([
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
]);
/** Keywords whose value is a list of subschemas. */
const schemaLists = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);

/**
 * The JSON Schema an adapter sends as the structured-output format of a
 * prompt: the output class's (or Standard Schema's) schema ({@link toJsonSchema}) for `'object'`;
 * for `'array'` an object `{ "items": [...] }` wrapping an array of it, since
 * providers want an object at the top. Nested definitions move to the
 * wrapper's `$defs` so every `$ref` still resolves. Cached and deeply frozen.
 *
 * @throws ConfigurationError when the class can never validate.
 */
export function outputJsonSchema(
  outputType: Class | StandardSchemaV1,
  container: 'object' | 'array',
  profile: SchemaProfile = 'standard',
): JsonSchema {
  const classSchema = toJsonSchema(outputType, profile).schema;
  if (container === 'object') return classSchema;
  let byProfile = arrayCache.get(outputType);
  if (byProfile === undefined) {
    byProfile = new Map();
    arrayCache.set(outputType, byProfile);
  }
  let wrapper = byProfile.get(profile);
  if (wrapper === undefined) {
    wrapper = deepFreeze(arrayWrapper(outputType, classSchema));
    byProfile.set(profile, wrapper);
  }
  return wrapper;
}

function arrayWrapper(outputType: Class | StandardSchemaV1, classSchema: JsonSchema): JsonSchema {
  const definitions: MutableSchema = {};
  const item: MutableSchema = {};
  for (const [keyword, value] of Object.entries(classSchema)) {
    if (keyword === '$defs' && isSchema(value)) {
      for (const [name, definition] of Object.entries(value))
        defineData(definitions, name, definition);
    } else {
      defineData(item, keyword, value);
    }
  }
  let items: JsonValue = item;
  // Inside the wrapper, `#` is the wrapper: a class that refers to itself must be a definition.
  if (refersToRoot(classSchema)) {
    const name = freeName(outputType, definitions);
    const target = `#/$defs/${name}`;
    for (const [key, definition] of Object.entries(definitions)) {
      defineData(definitions, key, retargetRoot(definition, target));
    }
    defineData(definitions, name, retargetRoot(item, target));
    items = { $ref: target };
  }
  const wrapper: MutableSchema = {
    type: 'object',
    properties: { items: { type: 'array', items } },
    required: ['items'],
    additionalProperties: false,
  };
  if (Object.keys(definitions).length > 0) wrapper['$defs'] = definitions;
  return wrapper;
}

/** A `$defs` name for the output class that no nested class already uses. */
function freeName(outputType: Class | StandardSchemaV1, definitions: MutableSchema): string {
  const named = isStandardSchema(outputType) ? '' : outputType.name;
  const base = named.replace(/[^A-Za-z0-9_]/g, '') || 'Output';
  let name = base;
  for (let n = 2; Object.hasOwn(definitions, name); n++) name = `${base}${n}`;
  return name;
}

function refersToRoot(schema: JsonValue): boolean {
  let found = false;
  walk(schema, (node) => {
    if (node['$ref'] === '#') found = true;
  });
  return found;
}

/** A copy of `schema` with every `{ "$ref": "#" }` pointing at `target` instead. */
function retargetRoot(schema: JsonValue, target: string): JsonValue {
  if (!isSchema(schema)) return schema;
  const copy: MutableSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    let next = value;
    if (keyword === '$ref' && value === '#') next = target;
    else if (schemaValues.has(keyword)) next = retargetRoot(value, target);
    else if (schemaLists.has(keyword) && Array.isArray(value)) {
      next = value.map((entry) => retargetRoot(entry, target));
    } else if (schemaMaps.has(keyword) && isSchema(value)) {
      const map: MutableSchema = {};
      for (const [name, entry] of Object.entries(value)) {
        defineData(map, name, retargetRoot(entry, target));
      }
      next = map;
    }
    defineData(copy, keyword, next);
  }
  return copy;
}

/** Visits every subschema (not `default`, `enum` or `const` data that merely looks like one). */
function walk(schema: JsonValue, visit: (node: Readonly<MutableSchema>) => void): void {
  if (!isSchema(schema)) return;
  visit(schema);
  for (const [keyword, value] of Object.entries(schema)) {
    if (schemaValues.has(keyword)) walk(value, visit);
    else if (schemaLists.has(keyword) && Array.isArray(value)) {
      for (const entry of value) walk(entry, visit);
    } else if (schemaMaps.has(keyword) && isSchema(value)) {
      for (const entry of Object.values(value)) walk(entry, visit);
    }
  }
}

function isSchema(value: JsonValue | undefined): value is MutableSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
