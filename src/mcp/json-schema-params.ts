// class-transformer's @Type reads `design:type` through reflect-metadata when it decorates.
import 'reflect-metadata';
import { Type } from 'class-transformer';
import * as cv from 'class-validator';

import { type DataClass, Describe } from '../index.js';
import { patternCheck } from './remote-pattern.js';
import { builtin, type Check, custom } from './schema-check.js';
import { formatChecks } from './schema-formats.js';

/** One part of a JSON Schema the package cannot validate. */
export interface SchemaProblem {
  /** JSON pointer to the (sub)schema holding the keyword, e.g. `/properties/tags/items`; `''` for the root. */
  readonly pointer: string;
  /** The keyword at fault: `$ref`, `multipleOf`, `type`... */
  readonly keyword: string;
  /** What is wrong, in one sentence. */
  readonly message: string;
}

/**
 * What {@link paramsClassFromJsonSchema} returns: a params class (`undefined`
 * when the tool takes no arguments), or every problem found in the schema.
 */
export type ParamsFromSchema =
  | { readonly ok: true; readonly params: DataClass | undefined }
  | { readonly ok: false; readonly problems: readonly SchemaProblem[] };

type BaseType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';
type Schema = Readonly<Record<string, unknown>>;

/** A property or items schema, read. No type and no checks: any JSON value. */
interface ValueNode {
  readonly type: BaseType | undefined;
  readonly nullable: boolean;
  readonly checks: readonly Check[];
  readonly items: ValueNode | undefined;
  /** The fields of an object schema with `properties`. */
  readonly shape: readonly FieldNode[] | undefined;
}

interface FieldNode {
  readonly name: string;
  readonly node: ValueNode;
  readonly required: boolean;
  readonly description: string | undefined;
}

/** Reads one keyword's value into the check it adds, a problem, or nothing to check. */
type Rule = (value: unknown, schema: Schema) => Check | string | undefined;

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number';
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown): v is string | number | boolean =>
  isString(v) || typeof v === 'boolean' || isFinite(v);
/** JSON Schema counts code points; validator.js also counts a variation selector with its character. */
const lengthOf = (v: unknown): number => (isString(v) ? Array.from(v).length : NaN);
const sizeOf = (v: unknown): number => (Array.isArray(v) ? v.length : NaN);
const scalarTypes: readonly unknown[] = ['string', 'number', 'integer', 'boolean'];

const isFinite = (v: unknown): v is number => isNumber(v) && Number.isFinite(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
/** A rule for a keyword whose value must be a non-negative integer (a finite number with `finite`). */
function rule(make: (n: number) => Check, finite = false): Rule {
  return (v) =>
    (finite ? isFinite : isCount)(v)
      ? make(v)
      : `Must be a ${finite ? 'finite number' : 'non-negative integer'}.`;
}

const typeChecks: Readonly<Record<BaseType, Check>> = {
  string: builtin(isString, cv.IsString),
  number: builtin(isFinite, cv.IsNumber, {}),
  integer: builtin(Number.isInteger, cv.IsInt),
  boolean: builtin((v) => typeof v === 'boolean', cv.IsBoolean),
  array: builtin(Array.isArray, cv.IsArray),
  object: builtin(isRecord, cv.IsObject),
};
const isEmpty = (v: unknown) => isRecord(v) && Object.keys(v).length === 0;
const emptyObject = custom('isEmptyObject', 'must be an empty object', isEmpty);

/** JSON Schema's `uniqueItems`: no two items equal as JSON values (keys sorted to compare). */
function distinct(value: unknown): boolean {
  const keys = (v: Record<string, unknown>) => Object.keys(v).sort();
  const sorted = (_key: string, v: unknown) =>
    isRecord(v) ? Object.fromEntries(keys(v).map((k) => [k, v[k]])) : v;
  const texts = Array.isArray(value) ? value.map((item) => JSON.stringify(item, sorted)) : [];
  return Array.isArray(value) && new Set(texts).size === value.length;
}

/** The keywords that validate, and how each is read. Built-in validators wherever they are exact. */
const rules = new Map<string, Rule>(
  Object.entries({
    minLength: rule((n) => {
      const test = (v: unknown) => lengthOf(v) >= n;
      if (n <= 1) return builtin(test, cv.MinLength, n);
      return custom('minCodePoints', `must be at least ${n} characters long`, test);
    }),
    maxLength: rule((n) => {
      const test = (v: unknown) => lengthOf(v) <= n;
      const text = `must be at most ${n} characters long`;
      return custom('maxCodePoints', text, test, builtin(test, cv.MaxLength, n));
    }),
    pattern: patternCheck,
    format: (value) =>
      (isString(value) ? formatChecks.get(value) : undefined) ??
      `${JSON.stringify(value)} is not supported: use email, uri or date-time.`,
    minimum: rule((n) => builtin((v) => isNumber(v) && v >= n, cv.Min, n), true),
    maximum: rule((n) => builtin((v) => isNumber(v) && v <= n, cv.Max, n), true),
    exclusiveMinimum: rule((n) => {
      const test = (v: unknown) => isNumber(v) && v > n;
      return n === 0 ? builtin(test, cv.IsPositive) : custom('isAbove', `must be > ${n}`, test);
    }, true),
    exclusiveMaximum: rule((n) => {
      const test = (v: unknown) => isNumber(v) && v < n;
      return n === 0 ? builtin(test, cv.IsNegative) : custom('isBelow', `must be < ${n}`, test);
    }, true),
    minItems: rule((n) => builtin((v) => sizeOf(v) >= n, cv.ArrayMinSize, n)),
    maxItems: rule((n) => builtin((v) => sizeOf(v) <= n, cv.ArrayMaxSize, n)),
    uniqueItems: (value, schema) => {
      if (typeof value !== 'boolean') return 'Must be true or false.';
      if (!value) return undefined;
      // ArrayUnique compares with ===, which is JSON equality only for scalars.
      const items = schema['items'];
      const scalar = isRecord(items) && scalarTypes.includes(items['type']);
      if (scalar) return builtin(distinct, cv.ArrayUnique);
      return custom('uniqueItems', 'must not hold equal items', distinct);
    },
    enum: (value) => {
      const valid = Array.isArray(value) && value.length > 0;
      if (!valid || !value.every((v) => v === null || isScalar(v)))
        return 'Must list strings, numbers, booleans or null.';
      const values = value.filter((v) => v !== null);
      return builtin((v) => values.includes(v), cv.IsIn, values);
    },
    const: (value) =>
      isScalar(value)
        ? builtin((v) => v === value, cv.Equals, value)
        : 'Must be a string, number or boolean.',
    description: (value) => (isString(value) ? undefined : 'Must be a string.'),
  }),
);

const objectKeywords = ['properties', 'required', 'additionalProperties'];
const keywordTypes = new Map<string, readonly BaseType[]>([
  ...['minLength', 'maxLength', 'pattern', 'format'].map((k) => [k, ['string']] as const),
  ...['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].map(
    (k) => [k, ['number', 'integer']] as const,
  ),
  ...['items', 'minItems', 'maxItems', 'uniqueItems'].map((k) => [k, ['array']] as const),
  ...objectKeywords.map((k) => [k, ['object']] as const),
]);
/** Keywords read elsewhere or not validated. */
const passive = new Set(['type', 'title', 'default', 'examples', '$comment', 'deprecated']);
const rootKeywords = new Set([...passive, ...objectKeywords, 'description', '$schema']);
const baseTypes: readonly unknown[] = ['string', 'number', 'integer', 'boolean', 'array', 'object'];
const unsupported = 'Not supported by paramsClassFromJsonSchema.';
/** Names `parseToolArguments` never accepts as a field. */
const reservedNames = new Set(['prototype', ...Object.getOwnPropertyNames(Object.prototype)]);
/** Most steps through `properties` and `items` to a schema, as deep as arguments may nest; deeper ones are not read. */
const maxSchemaDepth = 64;
const tooDeep = `Nests schemas more than ${maxSchemaDepth} levels deep (through properties and items), deeper than tool arguments may nest.`;

/**
 * Turns an MCP tool's input schema into a params class whose class-validator,
 * class-transformer and `@Describe` decorators accept what the schema accepts.
 * Supported: an object root with `properties`, `required` and boolean
 * `additionalProperties`; properties of type `string`, `number`, `integer`,
 * `boolean`, `array` or `object` (alone or with `null`) with `enum`, `const`,
 * string lengths, `pattern`, `format` (`email`, `uri`, `date-time`), numeric
 * bounds, `items`, `minItems`, `maxItems`, `uniqueItems`; the annotations
 * `description` (kept with `@Describe`), `title`, `default`, `examples`,
 * `$comment`, `deprecated`. Any other keyword is a problem, never ignored.
 * Fields outside `required` are optional; nested classes are named `${className}_${field}`.
 *
 * Stricter than JSON Schema, as `parseToolArguments` is: undeclared keys are
 * rejected, so an object schema with `properties` is closed whatever its
 * `additionalProperties`; free-form values (`{}`, objects without properties,
 * arrays without `items`) may not hold `__proto__`, `prototype` or a name
 * `Object.prototype` defines, and a property with such a name is a problem.
 * Formats are class-validator's: `isEmail`; `isURL` with a scheme and a host;
 * `isDateString` (strict) with the RFC 3339 shape, without leap seconds.
 * A `pattern` runs on the linear-time engine (`compileLinearPattern`: RE2
 * semantics), so a backreference or lookaround is a problem; so is a schema
 * nested more than 64 levels deep through `properties` and `items`.
 *
 * @param schema - the tool's `inputSchema`, as JSON data.
 * @param className - the `name` of the generated class.
 * @returns the class (`undefined` for a schema without properties), or the problems.
 */
export function paramsClassFromJsonSchema(schema: unknown, className: string): ParamsFromSchema {
  const reader = new SchemaReader();
  const fields = reader.root(schema);
  if (reader.problems.length > 0) return { ok: false, problems: reader.problems };
  return { ok: true, params: fields.length === 0 ? undefined : buildClass(fields, className) };
}

/** Reads a schema into nodes, collecting every problem. */
class SchemaReader {
  readonly problems: SchemaProblem[] = [];

  report(pointer: string, keyword: string, message: string): false {
    this.problems.push({ pointer, keyword, message });
    return false;
  }

  root(schema: unknown): readonly FieldNode[] {
    if (!isRecord(schema)) {
      this.report('', 'type', 'The root schema must be an object schema.');
      return [];
    }
    if (schema['type'] === undefined ? !('properties' in schema) : schema['type'] !== 'object')
      this.report('', 'type', 'The root schema must have type "object".');
    for (const keyword of Object.keys(schema).filter((k) => !rootKeywords.has(k)))
      this.report('', keyword, unsupported);
    return this.object(schema, '', 0).fields;
  }

  /** The fields of an object schema, and whether it forbids other keys. */
  private object(
    schema: Schema,
    pointer: string,
    depth: number,
  ): { fields: FieldNode[]; closed: boolean } {
    const closed = schema['additionalProperties'] === false;
    if (!['boolean', 'undefined'].includes(typeof schema['additionalProperties']))
      this.report(pointer, 'additionalProperties', 'Only true or false is supported.');
    const properties = schema['properties'] ?? {};
    const list = schema['required'] ?? [];
    if (!isRecord(properties) || !Array.isArray(list) || !list.every(isString)) {
      const [keyword, text] = isRecord(properties) ? ['required', 'list'] : ['properties', 'map'];
      this.report(pointer, keyword, `Must ${text} field names.`);
      return { fields: [], closed };
    }
    for (const name of list.filter((n) => !Object.hasOwn(properties, n)))
      this.report(pointer, 'required', `Names "${name}", which is not in properties.`);
    const fields: FieldNode[] = [];
    for (const name of Object.keys(properties)) {
      const at = `${pointer}/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (reservedNames.has(name)) {
        this.report(at, 'properties', `"${name}" is a reserved name, never accepted as a field.`);
        continue;
      }
      const sub = properties[name];
      const node = this.value(sub, at, depth + 1, 'properties');
      const text = isRecord(sub) && isString(sub['description']) ? sub['description'].trim() : '';
      const description = text === '' ? undefined : text;
      if (node !== undefined)
        fields.push({ name, node, required: list.includes(name), description });
    }
    return { fields, closed };
  }

  /** A property or items schema, or `undefined` once its problems are reported. */
  private value(
    schema: unknown,
    pointer: string,
    depth: number,
    via: 'properties' | 'items',
  ): ValueNode | undefined {
    const declared =
      depth > maxSchemaDepth
        ? this.report(pointer, via, tooDeep)
        : isRecord(schema)
          ? this.type(schema['type'], pointer)
          : this.report(pointer, 'type', 'Must be a JSON Schema object.');
    if (!declared || !isRecord(schema)) return undefined;
    const count = this.problems.length;
    const base = declared.base;
    const checks: Check[] = base === undefined ? [] : [typeChecks[base]];
    for (const keyword of Object.keys(schema)) {
      const owners = keywordTypes.get(keyword);
      const read = rules.get(keyword);
      if (owners === undefined && read === undefined && !passive.has(keyword))
        this.report(pointer, keyword, unsupported);
      else if (owners !== undefined && (base === undefined || !owners.includes(base)))
        this.report(pointer, keyword, `Applies only with "type": "${owners.join('" or "')}".`);
      else {
        const outcome = read?.(schema[keyword], schema);
        if (isString(outcome)) this.report(pointer, keyword, outcome);
        else if (outcome !== undefined) checks.push(outcome);
      }
    }
    let items: ValueNode | undefined;
    let shape: FieldNode[] | undefined;
    if (base === 'array' && Array.isArray(schema['items']))
      this.report(pointer, 'items', 'The tuple form (an array of schemas) is not supported.');
    else if (base === 'array' && schema['items'] !== undefined)
      items = this.value(schema['items'], `${pointer}/items`, depth + 1, 'items');
    if (base === 'object') {
      const { fields, closed } = this.object(schema, pointer, depth);
      if (fields.length > 0) shape = fields;
      else if (closed) checks.push(emptyObject);
    }
    if (this.problems.length > count) return undefined;
    // `null` passes only when the type, the enum and the const all allow it.
    const list = schema['enum'];
    const nullable =
      declared.nullable && (!Array.isArray(list) || list.includes(null)) && !('const' in schema);
    return { type: base, nullable, checks, items, shape };
  }

  private type(type: unknown, pointer: string): { base?: BaseType; nullable: boolean } | false {
    if (type === undefined) return { nullable: true };
    const nullable = Array.isArray(type) && type.length === 2 && type.includes('null');
    const base: unknown = nullable ? type.find((name) => name !== 'null') : type;
    if (baseTypes.includes(base)) return { base: base as BaseType, nullable };
    const message = `${JSON.stringify(type)} is not supported: use one of ${baseTypes.join(', ')}, alone or with "null".`;
    return this.report(pointer, 'type', message);
  }
}

/** What a node accepts, for items the decorators cannot reach (nullable items, nested arrays). */
function accepts(node: ValueNode, value: unknown): boolean {
  if (value === null) return node.nullable;
  if (!node.checks.every((c) => c.test(value))) return false;
  const { items, shape } = node;
  if (items !== undefined && Array.isArray(value) && !value.every((v) => accepts(items, v)))
    return false;
  if (shape === undefined || !isRecord(value)) return true;
  // Closed, as parseToolArguments treats nested classes.
  if (!Object.keys(value).every((key) => shape.some((field) => field.name === key))) return false;
  return shape.every((field) =>
    value[field.name] === undefined ? !field.required : accepts(field.node, value[field.name]),
  );
}

function buildClass(fields: readonly FieldNode[], name: string): DataClass {
  const cls = class {};
  Object.defineProperty(cls, 'name', { value: name });
  for (const field of fields) decorateField(cls.prototype, field, `${name}_${field.name}`);
  return cls;
}

const designTypes: Readonly<Record<BaseType, unknown>> = {
  ...{ string: String, number: Number, integer: Number, boolean: Boolean },
  ...{ array: Array, object: Object },
};

function decorateField(prototype: object, field: FieldNode, nestedName: string): void {
  const { name, node } = field;
  const apply = (...decorators: readonly PropertyDecorator[]) => {
    for (const decorator of decorators) decorator(prototype, name);
  };
  const nested = node.shape === undefined ? undefined : buildClass(node.shape, nestedName);
  if (node.type !== undefined)
    Reflect.defineMetadata('design:type', nested ?? designTypes[node.type], prototype, name);
  if (field.description !== undefined) apply(Describe(field.description));
  // @IsOptional skips null and undefined alike; JSON Schema tells them apart.
  if (!field.required)
    apply(node.nullable ? cv.IsOptional() : cv.ValidateIf((_o, v) => v !== undefined));
  else if (node.nullable) apply(cv.ValidateIf((_o, v) => v !== null));
  if (node.checks.length === 0) apply(cv.Allow());
  apply(...valueDecorators(node, {}, nested));
  const items = node.items;
  if (items === undefined || (items.checks.length === 0 && items.nullable)) return;
  if (!items.nullable && items.type !== 'array') {
    const itemClass = items.shape === undefined ? undefined : buildClass(items.shape, nestedName);
    apply(...valueDecorators(items, { each: true }, itemClass));
  } else {
    const test = (v: unknown) => !Array.isArray(v) || v.every((item) => accepts(items, item));
    apply(...custom('itemsMatch', 'must hold items that match the schema', test).decorate({}));
  }
}

function valueDecorators(node: ValueNode, options: cv.ValidationOptions, nested?: DataClass) {
  const decorators = node.checks.flatMap((c) => c.decorate(options));
  if (nested === undefined) return decorators;
  const nestedType = (): DataClass => nested;
  decorators.push(Type(nestedType), cv.ValidateNested(options));
  return decorators;
}
