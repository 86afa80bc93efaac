import { ConfigurationError } from '../errors/configuration-error.js';
import { readFieldDescriptions } from '../metadata/describe-metadata.js';
import type { AnyClass } from './class-fields.js';
import { dump, type JsonValue } from './dump.js';
import { joinFieldPath } from './field-path.js';
import type { ParamsJsonSchema, SchemaGap, SchemaProfile } from './params-json-schema.js';
import {
  type FieldConstraint,
  type FieldShape,
  type ParamsShape,
  readParamsShape,
} from './params-shape.js';
import { defineData } from './plain-object.js';

type MutableSchema = Record<string, JsonValue>;
type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

/** The `format` values OpenAI strict mode supports. */
const strictFormats = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** Constraints that say nothing more than "this is an object" about a nested field. */
const nestedNeutral = new Set(['isObject', 'isNotEmpty', 'isNotEmptyObject']);

/** Constraints that say nothing more than "this is an array" about a list field. */
const listNeutral = new Set(['isArray', 'isNotEmpty']);

/**
 * Builds the JSON Schema of a params class for one profile, without caching
 * (see `toJsonSchema` for the cached, frozen form). Nested classes go into
 * `$defs` and are referenced with `$ref`; a reference back to the root class
 * is `{ "$ref": "#" }`.
 *
 * @throws ConfigurationError when the class can never validate (a
 * `@ValidateNested()` without `@Type`, an undecorated field, a nested class
 * without validated fields).
 * @internal
 */
export function buildJsonSchema(
  paramsType: AnyClass,
  profile: SchemaProfile,
  shapeOf: (cls: AnyClass) => ParamsShape = readParamsShape,
): ParamsJsonSchema {
  return new SchemaBuilder(paramsType, profile, shapeOf).build();
}

class SchemaBuilder {
  private readonly unexpressed: SchemaGap[] = [];
  private readonly blockers: SchemaGap[] = [];
  private readonly definitions = new Map<AnyClass, { name: string; schema: MutableSchema }>();
  private readonly strict: boolean;

  constructor(
    private readonly root: AnyClass,
    private readonly profile: SchemaProfile,
    private readonly shapeOf: (cls: AnyClass) => ParamsShape,
  ) {
    this.strict = profile === 'openai-strict';
  }

  build(): ParamsJsonSchema {
    const schema = this.objectSchema(this.root, '');
    if (this.definitions.size > 0) {
      const definitions: MutableSchema = {};
      for (const { name, schema: definition } of this.definitions.values()) {
        definitions[name] = definition;
      }
      schema['$defs'] = definitions;
    }
    return {
      profile: this.profile,
      schema,
      unexpressed: this.unexpressed,
      strictBlockers: this.blockers,
      strictCompatible: this.blockers.length === 0,
    };
  }

  private objectSchema(cls: AnyClass, path: string): MutableSchema {
    const shape = this.shapeOf(cls);
    assertUsable(shape, cls !== this.root);
    const descriptions = readFieldDescriptions(cls);
    const properties: MutableSchema = {};
    const required: string[] = [];
    for (const field of shape.fields.values()) {
      const fieldPath = joinFieldPath(path, field.name);
      defineData(
        properties,
        field.name,
        this.fieldSchema(field, fieldPath, descriptions.get(field.name)),
      );
      if (this.strict || field.required) required.push(field.name);
    }
    const schema: MutableSchema = { type: 'object', properties };
    if (this.strict || required.length > 0) schema['required'] = required;
    schema['additionalProperties'] = false;
    return schema;
  }

  private fieldSchema(
    field: FieldShape,
    path: string,
    description: string | undefined,
  ): MutableSchema {
    let core: MutableSchema;
    if (field.list) {
      const itemPath = `${path}[]`;
      const items =
        field.nested === undefined
          ? this.valueSchema(
              field.constraints.filter((c) => c.each),
              undefined,
              itemPath,
              field,
            )
          : this.nestedSchema(
              field.nested,
              field.constraints.filter((c) => c.each),
              itemPath,
            );
      core = this.arraySchema(
        field.constraints.filter((c) => !c.each),
        items,
        path,
      );
    } else if (field.nested !== undefined) {
      core = this.nestedSchema(field.nested, field.constraints, path);
    } else {
      core = this.valueSchema(field.constraints, field.designType, path, field);
    }
    if (field.conditional) {
      this.gap(
        path,
        'validateIf',
        'validated only when its @ValidateIf condition on other fields holds; the schema shows the validated form and does not require the field',
      );
    }
    const nullable = this.strict
      ? field.nullable || field.optional
      : field.nullable && !field.optional;
    const schema: MutableSchema = {};
    if (description !== undefined) schema['description'] = description;
    Object.assign(schema, nullable ? withNull(core) : core);
    if (!this.strict && field.defaultValue !== undefined) {
      const fallback = dumpQuietly(field.defaultValue);
      if (fallback !== undefined) schema['default'] = fallback;
    }
    return schema;
  }

  private nestedSchema(
    cls: AnyClass,
    constraints: readonly FieldConstraint[],
    path: string,
  ): MutableSchema {
    for (const constraint of constraints) {
      if (!nestedNeutral.has(constraint.name)) this.customGap(path, constraint.name);
    }
    if (cls === this.root) return { $ref: '#' };
    let definition = this.definitions.get(cls);
    if (definition === undefined) {
      definition = { name: this.definitionName(cls), schema: {} };
      this.definitions.set(cls, definition);
      definition.schema = this.objectSchema(cls, path);
    }
    return { $ref: `#/$defs/${definition.name}` };
  }

  private definitionName(cls: AnyClass): string {
    const base = cls.name.replace(/[^A-Za-z0-9_]/g, '') || 'Anonymous';
    const taken = new Set([...this.definitions.values()].map((d) => d.name));
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    return name;
  }

  private arraySchema(
    constraints: readonly FieldConstraint[],
    items: MutableSchema,
    path: string,
  ): MutableSchema {
    let minItems: number | undefined;
    let maxItems: number | undefined;
    let uniqueItems = false;
    for (const constraint of constraints) {
      const [first] = constraint.constraints;
      switch (constraint.name) {
        case 'arrayMinSize':
          if (typeof first === 'number') minItems = Math.max(minItems ?? 0, first);
          break;
        case 'arrayNotEmpty':
          minItems = Math.max(minItems ?? 0, 1);
          break;
        case 'arrayMaxSize':
          if (typeof first === 'number') maxItems = Math.min(maxItems ?? Infinity, first);
          break;
        case 'arrayUnique':
          if (this.strict) this.strictGap(path, constraint.name, 'uniqueItems');
          else uniqueItems = true;
          break;
        default:
          if (!listNeutral.has(constraint.name)) this.customGap(path, constraint.name);
      }
    }
    const schema: MutableSchema = { type: 'array', items };
    if (minItems !== undefined) schema['minItems'] = minItems;
    if (maxItems !== undefined) schema['maxItems'] = maxItems;
    if (uniqueItems) schema['uniqueItems'] = true;
    return schema;
  }

  /** The schema of a scalar (or free-form) value from its validators, falling back on `design:type`. */
  private valueSchema(
    constraints: readonly FieldConstraint[],
    designType: unknown,
    path: string,
    field: FieldShape,
  ): MutableSchema {
    const types: JsonType[] = [];
    const addType = (type: JsonType): void => {
      if (!types.includes(type)) types.push(type);
    };
    const keywords = new Keywords();
    let values: JsonValue[] | undefined;
    let constant: { value: JsonValue } | undefined;
    let notEmpty = false;

    for (const constraint of constraints) {
      const [first, second] = constraint.constraints;
      switch (constraint.name) {
        case 'isString':
          addType('string');
          break;
        case 'isInt':
          addType('integer');
          break;
        case 'isNumber':
          addType('number');
          if (isRecord(first) && first['maxDecimalPlaces'] !== undefined) {
            this.gap(
              path,
              'isNumber',
              'enforced at runtime only: JSON Schema cannot limit decimal places exactly',
            );
          }
          break;
        case 'isBoolean':
          addType('boolean');
          break;
        case 'isEnum':
        case 'isIn': {
          const allowed = jsonScalars(constraint.name === 'isEnum' ? second : first);
          if (allowed === undefined) this.customGap(path, constraint.name);
          else values = values === undefined ? allowed : values.filter((v) => allowed.includes(v));
          break;
        }
        case 'equals':
          if (isJsonScalar(first)) constant = { value: first };
          else this.customGap(path, constraint.name);
          break;
        case 'minLength':
        case 'maxLength':
        case 'isLength': {
          addType('string');
          if (this.strict) {
            this.strictGap(path, constraint.name, 'minLength/maxLength');
            break;
          }
          const min = constraint.name === 'maxLength' ? undefined : first;
          const max =
            constraint.name === 'minLength'
              ? undefined
              : constraint.name === 'maxLength'
                ? first
                : second;
          if (typeof min === 'number') keywords.raise('minLength', min);
          if (typeof max === 'number') keywords.lower('maxLength', max);
          break;
        }
        case 'matches':
          addType('string');
          this.pattern(keywords, first, second, path);
          break;
        case 'isEmail':
          addType('string');
          this.format(keywords, 'email', path, constraint.name);
          break;
        case 'isUrl':
          addType('string');
          this.format(keywords, 'uri', path, constraint.name);
          break;
        case 'isUuid':
          addType('string');
          this.format(keywords, 'uuid', path, constraint.name);
          if (first !== undefined && first !== 'all') {
            this.gap(
              path,
              'isUuid',
              `enforced at runtime only: the schema says format "uuid" but not the version (${JSON.stringify(first)})`,
            );
          }
          break;
        case 'isDateString':
          addType('string');
          this.format(keywords, 'date-time', path, constraint.name);
          break;
        case 'isDate':
          addType('string');
          this.format(keywords, 'date-time', path, constraint.name);
          if (field.declaredType !== Date) {
            this.gap(
              path,
              'isDate',
              'fails for every JSON value: add @Type(() => Date) so the ISO string is converted to a Date',
            );
          }
          break;
        case 'min':
          addType('number');
          if (typeof first === 'number') keywords.raise('minimum', first);
          break;
        case 'max':
          addType('number');
          if (typeof first === 'number') keywords.lower('maximum', first);
          break;
        case 'isPositive':
          addType('number');
          keywords.raise('exclusiveMinimum', 0);
          break;
        case 'isNegative':
          addType('number');
          keywords.lower('exclusiveMaximum', 0);
          break;
        case 'isNotEmpty':
          notEmpty = true;
          break;
        case 'isObject':
          addType('object');
          this.blocker(
            path,
            'isObject',
            'is a free-form object; strict mode needs every property declared (use a class with @ValidateNested() and @Type())',
          );
          break;
        default:
          this.customGap(path, constraint.name);
      }
    }

    if (types.length === 0) {
      const implied = values ?? (constant === undefined ? [] : [constant.value]);
      for (const value of implied) addType(jsonTypeOf(value));
      // 1 and 2.5 together are numbers, not integers.
      if (types.includes('number') && types.includes('integer'))
        types.splice(types.indexOf('integer'), 1);
    }
    if (types.length === 0) {
      const fromDesign = designTypes.get(designType);
      if (fromDesign !== undefined) addType(fromDesign);
    }
    if (types.includes('integer') && types.includes('number'))
      types.splice(types.indexOf('number'), 1);

    if (notEmpty) {
      if (types.includes('string')) {
        if (this.strict) this.strictGap(path, 'isNotEmpty', 'minLength');
        else keywords.raise('minLength', 1);
      } else if (types.length === 0) {
        this.gap(
          path,
          'isNotEmpty',
          'enforced at runtime only: the field has no type the schema could restrict',
        );
      }
    }
    if (types.length === 0) {
      this.blocker(
        path,
        'type',
        `has no type: no validator gives one and its design type is ${nameOf(designType)}; add @IsString(), @IsInt(), @IsEnum(), @ValidateNested() with @Type() or similar`,
      );
      return {};
    }

    const [only] = types;
    const schema: MutableSchema = { type: types.length === 1 && only !== undefined ? only : types };
    if (values !== undefined) schema['enum'] = values;
    if (constant !== undefined) schema['const'] = constant.value;
    keywords.writeTo(schema);
    return schema;
  }

  private pattern(keywords: Keywords, pattern: unknown, modifiers: unknown, path: string): void {
    const source =
      pattern instanceof RegExp
        ? pattern.source
        : typeof pattern === 'string'
          ? pattern
          : undefined;
    const flags =
      (pattern instanceof RegExp ? pattern.flags : '') +
      (typeof modifiers === 'string' ? modifiers : '');
    if (source === undefined || /[^gyud]/.test(flags)) {
      this.gap(
        path,
        'matches',
        `enforced at runtime only: the pattern uses flags (${flags}) JSON Schema cannot express`,
      );
      return;
    }
    keywords.set('pattern', source);
  }

  private format(keywords: Keywords, format: string, path: string, constraint: string): void {
    if (this.strict && !strictFormats.has(format)) {
      this.strictGap(path, constraint, `format "${format}"`);
      return;
    }
    keywords.set('format', format);
  }

  private gap(path: string, constraint: string, reason: string): void {
    this.unexpressed.push({ path, constraint, reason });
  }

  private customGap(path: string, constraint: string): void {
    this.gap(
      path,
      constraint,
      'enforced at runtime only: JSON Schema has no keyword for this validator',
    );
  }

  private strictGap(path: string, constraint: string, keyword: string): void {
    this.gap(
      path,
      constraint,
      `enforced at runtime only: OpenAI strict mode does not support ${keyword}`,
    );
  }

  private blocker(path: string, constraint: string, reason: string): void {
    this.blockers.push({ path, constraint, reason });
  }
}

/** Numeric and string keywords in a fixed, readable order, keeping the tightest bound. */
class Keywords {
  private static readonly order = [
    'format',
    'pattern',
    'minLength',
    'maxLength',
    'minimum',
    'exclusiveMinimum',
    'maximum',
    'exclusiveMaximum',
  ];
  private readonly values = new Map<string, JsonValue>();

  set(keyword: string, value: JsonValue): void {
    this.values.set(keyword, value);
  }

  raise(keyword: string, value: number): void {
    const current = this.values.get(keyword);
    this.values.set(keyword, typeof current === 'number' ? Math.max(current, value) : value);
  }

  lower(keyword: string, value: number): void {
    const current = this.values.get(keyword);
    this.values.set(keyword, typeof current === 'number' ? Math.min(current, value) : value);
  }

  writeTo(schema: MutableSchema): void {
    for (const keyword of Keywords.order) {
      const value = this.values.get(keyword);
      if (value !== undefined) schema[keyword] = value;
    }
  }
}

const designTypes = new Map<unknown, JsonType>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
]);

function assertUsable(shape: ParamsShape, nested: boolean): void {
  const [problem] = shape.problems;
  if (problem !== undefined) {
    const [field, text, fix] = problem;
    throw new ConfigurationError({ subject: `${shape.type.name}.${field}`, problem: text, fix });
  }
  if (nested && shape.fields.size === 0) {
    throw new ConfigurationError({
      subject: shape.type.name,
      problem:
        'is used with @ValidateNested() but has no validated fields, so class-validator rejects every value of it.',
      fix: 'Decorate its fields with class-validator decorators, or declare the field with @IsObject() instead of @ValidateNested().',
    });
  }
}

/** Adds `null` to what a schema accepts, keeping its keyword order. */
function withNull(schema: MutableSchema): MutableSchema {
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

function jsonScalars(values: unknown): JsonValue[] | undefined {
  if (!Array.isArray(values) || !values.every(isJsonScalar)) return undefined;
  return [...new Set(values as JsonValue[])];
}

function isJsonScalar(value: unknown): value is string | number | boolean | null {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function jsonTypeOf(value: JsonValue): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return 'object';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function nameOf(type: unknown): string {
  if (typeof type === 'function' && type.name !== '') return type.name;
  return 'unknown';
}

function dumpQuietly(value: unknown): JsonValue | undefined {
  try {
    return dump(value);
  } catch {
    return undefined;
  }
}
