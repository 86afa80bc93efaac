import type { JsonValue } from './dump.js';
import { isJsonScalar, jsonScalars, jsonTypeOf } from './json-scalars.js';
import type { JsonType, MutableSchema } from './mutable-schema.js';
import type { FieldConstraint, FieldShape } from './params-shape.js';
import type { SchemaGaps } from './schema-gaps.js';
import { addFormat, addPattern, SchemaKeywords } from './schema-keywords.js';

/**
 * The schema of a scalar (or free-form) value from its validators, falling
 * back on `design:type`; records in `gaps` what it cannot express. @internal
 */
export function valueSchema(
  constraints: readonly FieldConstraint[],
  designType: unknown,
  path: string,
  field: FieldShape,
  strict: boolean,
  gaps: SchemaGaps,
): MutableSchema {
  const types: JsonType[] = [];
  const addType = (type: JsonType): void => {
    if (!types.includes(type)) types.push(type);
  };
  const keywords = new SchemaKeywords();
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
          gaps.gap(
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
        if (allowed === undefined) gaps.customGap(path, constraint.name);
        else values = values === undefined ? allowed : values.filter((v) => allowed.includes(v));
        break;
      }
      case 'equals':
        if (isJsonScalar(first)) constant = { value: first };
        else gaps.customGap(path, constraint.name);
        break;
      case 'minLength':
      case 'maxLength':
      case 'isLength': {
        addType('string');
        if (strict) {
          gaps.strictGap(path, constraint.name, 'minLength/maxLength');
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
        addPattern(keywords, first, second, path, gaps);
        break;
      case 'isEmail':
        addType('string');
        addFormat(keywords, 'email', path, constraint.name, strict, gaps);
        break;
      case 'isUrl':
        addType('string');
        addFormat(keywords, 'uri', path, constraint.name, strict, gaps);
        break;
      case 'isUuid':
        addType('string');
        addFormat(keywords, 'uuid', path, constraint.name, strict, gaps);
        if (first !== undefined && first !== 'all') {
          gaps.gap(
            path,
            'isUuid',
            `enforced at runtime only: the schema says format "uuid" but not the version (${JSON.stringify(first)})`,
          );
        }
        break;
      case 'isDateString':
        addType('string');
        addFormat(keywords, 'date-time', path, constraint.name, strict, gaps);
        break;
      case 'isDate':
        addType('string');
        addFormat(keywords, 'date-time', path, constraint.name, strict, gaps);
        if (field.declaredType !== Date) {
          gaps.gap(
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
        gaps.blocker(
          path,
          'isObject',
          'is a free-form object; strict mode needs every property declared (use a class with @ValidateNested() and @Type())',
        );
        break;
      default:
        gaps.customGap(path, constraint.name);
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
      if (strict) gaps.strictGap(path, 'isNotEmpty', 'minLength');
      else keywords.raise('minLength', 1);
    } else if (types.length === 0) {
      gaps.gap(
        path,
        'isNotEmpty',
        'enforced at runtime only: the field has no type the schema could restrict',
      );
    }
  }
  if (types.length === 0) {
    gaps.blocker(
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

const designTypes = new Map<unknown, JsonType>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function nameOf(type: unknown): string {
  if (typeof type === 'function' && type.name !== '') return type.name;
  return 'unknown';
}
