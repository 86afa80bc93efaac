import { ConfigurationError } from '../core/errors/configuration-error.js';
import { joinFieldPath } from './field-path.js';
import type { JsonSchema, ParamsJsonSchema, SchemaProfile } from './params-json-schema.js';
import { isPlainObject } from './plain-object.js';
import { SchemaGaps } from './schema-gaps.js';
import { strictFormats } from './schema-keywords.js';

type Schema = Record<string, unknown>;

/** Keywords OpenAI strict mode accepts as they are (`format` is checked on its own). */
const strictKeywords = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'description',
  'title',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

/** Keywords strict mode cannot carry at all: a schema using them is sent non-strict. */
const blockingKeywords = new Set(['allOf', 'oneOf', 'not', 'prefixItems', 'patternProperties']);

const maxDepth = 64;

/**
 * Projects the JSON Schema a schema library wrote for a tool's params onto a
 * profile, the way `toJsonSchema` writes a params class: `standard` keeps the
 * library's schema (less `$schema`); `openai-strict` lists every property in
 * `required`, makes the optional ones nullable, closes every object and drops
 * the keywords strict mode does not support, each listed in `unexpressed`.
 * What strict mode cannot carry at all (open objects, `allOf`, `oneOf`, `not`,
 * tuples) is listed in `strictBlockers`, for both profiles.
 *
 * @throws ConfigurationError when the schema does not describe an object.
 * @internal
 */
export function projectJsonSchema(
  source: unknown,
  profile: SchemaProfile,
  subject: string,
): ParamsJsonSchema {
  if (!isPlainObject(source) || !isObjectSchema(source)) {
    throw new ConfigurationError({
      subject,
      problem: 'its JSON Schema does not describe an object; tool arguments are always an object.',
      fix: 'Use an object schema (e.g. `z.object({...})`) as the tool `params`.',
    });
  }
  const projector = new Projector(profile === 'openai-strict');
  const root = projector.node(withoutDialect(source), '', 1) as Schema;
  return {
    profile,
    schema: root as JsonSchema,
    unexpressed: projector.gaps.unexpressed,
    strictBlockers: projector.gaps.blockers,
    strictCompatible: projector.gaps.blockers.length === 0,
  };
}

function withoutDialect(schema: Schema): Schema {
  const copy: Schema = {};
  for (const [key, value] of Object.entries(schema)) if (key !== '$schema') copy[key] = value;
  return copy;
}

function isObjectSchema(schema: Schema): boolean {
  return schema['type'] === 'object' || (schema['type'] === undefined && 'properties' in schema);
}

class Projector {
  readonly gaps = new SchemaGaps();

  constructor(private readonly strict: boolean) {}

  node(value: unknown, path: string, depth: number): unknown {
    if (Array.isArray(value)) return value.map((item) => this.node(item, path, depth + 1));
    if (!isPlainObject(value) || depth > maxDepth) return value;
    this.checkBlockers(value, path);
    const out: Schema = {};
    for (const [key, item] of Object.entries(value)) {
      if (this.strict && !this.keeps(key, item, path)) continue;
      out[key] = this.child(key, item, path, depth);
    }
    if (this.strict && isObjectSchema(value)) closeObject(out, value);
    return out;
  }

  private child(key: string, item: unknown, path: string, depth: number): unknown {
    if (key === 'properties' && isPlainObject(item)) {
      const properties: Schema = {};
      for (const [name, schema] of Object.entries(item)) {
        properties[name] = this.node(schema, joinFieldPath(path, name), depth + 1);
      }
      return properties;
    }
    if (key === 'items') return this.node(item, `${path}[]`, depth + 1);
    if (key === '$defs' || key === 'definitions') {
      if (!isPlainObject(item)) return item;
      const definitions: Schema = {};
      for (const [name, schema] of Object.entries(item)) {
        definitions[name] = this.node(schema, `#/${key}/${name}`, depth + 1);
      }
      return definitions;
    }
    if (key === 'anyOf' || key === 'additionalProperties') return this.node(item, path, depth + 1);
    return item;
  }

  /** Whether strict mode keeps `key`; a dropped constraint is recorded in `unexpressed`. */
  private keeps(key: string, item: unknown, path: string): boolean {
    if (key === 'format') {
      if (typeof item === 'string' && strictFormats.has(item)) return true;
      this.gaps.strictGap(path, 'format', `format ${JSON.stringify(item)}`);
      return false;
    }
    if (strictKeywords.has(key) || blockingKeywords.has(key)) return true;
    this.gaps.strictGap(path, key, key);
    return false;
  }

  private checkBlockers(schema: Schema, path: string): void {
    for (const keyword of blockingKeywords) {
      if (keyword in schema) {
        this.gaps.blocker(path, keyword, `OpenAI strict mode does not support ${keyword}`);
      }
    }
    const extra = schema['additionalProperties'];
    if (isObjectSchema(schema) && extra !== undefined && extra !== false) {
      this.gaps.blocker(
        path,
        'additionalProperties',
        'OpenAI strict mode needs closed objects; this one accepts other keys',
      );
    }
  }
}

/** Every property required, the optional ones nullable, no other key. */
function closeObject(out: Schema, source: Schema): void {
  const properties = isPlainObject(out['properties']) ? out['properties'] : {};
  const required = new Set(Array.isArray(source['required']) ? source['required'] : []);
  for (const name of Object.keys(properties)) {
    if (!required.has(name)) properties[name] = nullable(properties[name]);
  }
  out['properties'] = properties;
  out['required'] = Object.keys(properties);
  if (out['additionalProperties'] === undefined) out['additionalProperties'] = false;
}

/** `schema` also accepting `null`. */
function nullable(schema: unknown): unknown {
  if (!isPlainObject(schema) || acceptsNull(schema)) return schema;
  const type = schema['type'];
  if (!('enum' in schema) && !('const' in schema)) {
    if (typeof type === 'string') return { ...schema, type: [type, 'null'] };
    if (Array.isArray(type)) return { ...schema, type: [...(type as unknown[]), 'null'] };
  }
  const anyOf: unknown = schema['anyOf'];
  if (Array.isArray(anyOf))
    return { ...schema, anyOf: [...(anyOf as unknown[]), { type: 'null' }] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** Whether a property schema admits `null` as it is (so a `null` argument is a value, not "absent"). @internal */
export function acceptsNull(schema: Schema): boolean {
  const type = schema['type'];
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(schema['enum']) && schema['enum'].includes(null)) return true;
  if (schema['const'] === null) return true;
  const anyOf = schema['anyOf'];
  return Array.isArray(anyOf) && anyOf.some((item) => isPlainObject(item) && acceptsNull(item));
}
