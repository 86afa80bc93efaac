import type { JsonValue } from './dump.js';
import { isJsonScalar, jsonScalars } from './json-scalars.js';
import type { JsonType } from './mutable-schema.js';
import type { FieldConstraint, FieldShape } from './params-shape.js';
import type { SchemaGaps } from './schema-gaps.js';
import { addFormat, addPattern, SchemaKeywords } from './schema-keywords.js';

/** What the validators of one value say about its schema, gathered constraint by constraint. @internal */
export class ValueDraft {
  readonly types: JsonType[] = [];
  readonly keywords = new SchemaKeywords();
  values: JsonValue[] | undefined;
  constant: { value: JsonValue } | undefined;
  notEmpty = false;

  /** Adds `type` to the value's types, once. */
  addType(type: JsonType): void {
    if (!this.types.includes(type)) this.types.push(type);
  }

  /** Drops `type` from the value's types. */
  removeType(type: JsonType): void {
    this.types.splice(this.types.indexOf(type), 1);
  }
}

/** The value being described: where it is, its field, and how its schema is checked. @internal */
export interface ValueContext {
  readonly path: string;
  readonly field: FieldShape;
  readonly strict: boolean;
  readonly gaps: SchemaGaps;
}

/** What one class-validator constraint adds to the draft of a value's schema. */
type ConstraintRule = (
  constraint: FieldConstraint,
  draft: ValueDraft,
  context: ValueContext,
) => void;

/**
 * Adds what `constraint` says to `draft`; a validator with no rule is
 * recorded as enforced at runtime only. @internal
 */
export function applyConstraint(
  constraint: FieldConstraint,
  draft: ValueDraft,
  context: ValueContext,
): void {
  const rule = constraintRules.get(constraint.name);
  if (rule === undefined) context.gaps.customGap(context.path, constraint.name);
  else rule(constraint, draft, context);
}

/** A rule that only gives the value a type. */
function typeRule(type: JsonType): ConstraintRule {
  return (_constraint, draft) => {
    draft.addType(type);
  };
}

/** A rule for a string with a `format`. */
function formatRule(format: string): ConstraintRule {
  return (constraint, draft, context) => {
    addStringFormat(format, constraint, draft, context);
  };
}

/** Makes the value a string with `format`, unless strict mode does not support it. */
function addStringFormat(
  format: string,
  constraint: FieldConstraint,
  draft: ValueDraft,
  { path, strict, gaps }: ValueContext,
): void {
  draft.addType('string');
  addFormat(draft.keywords, format, path, constraint.name, strict, gaps);
}

/** `@IsNumber()`: a number, whose decimal places the schema cannot limit. */
function isNumberRule(constraint: FieldConstraint, draft: ValueDraft, context: ValueContext): void {
  const [options] = constraint.constraints;
  draft.addType('number');
  if (isRecord(options) && options['maxDecimalPlaces'] !== undefined) {
    context.gaps.gap(
      context.path,
      'isNumber',
      'enforced at runtime only: JSON Schema cannot limit decimal places exactly',
    );
  }
}

/** `@IsEnum()`: the enum's values, narrowed by any earlier list. */
function isEnumRule(constraint: FieldConstraint, draft: ValueDraft, context: ValueContext): void {
  allowValues(constraint.constraints[1], constraint, draft, context);
}

/** `@IsIn()`: the listed values, narrowed by any earlier list. */
function isInRule(constraint: FieldConstraint, draft: ValueDraft, context: ValueContext): void {
  allowValues(constraint.constraints[0], constraint, draft, context);
}

/** Allows only the scalars of `list` (and of any earlier list), or records a gap when it has others. */
function allowValues(
  list: unknown,
  constraint: FieldConstraint,
  draft: ValueDraft,
  context: ValueContext,
): void {
  const allowed = jsonScalars(list);
  if (allowed === undefined) context.gaps.customGap(context.path, constraint.name);
  else
    draft.values =
      draft.values === undefined ? allowed : draft.values.filter((v) => allowed.includes(v));
}

/** `@Equals()`: a constant, when it is a JSON scalar. */
function equalsRule(constraint: FieldConstraint, draft: ValueDraft, context: ValueContext): void {
  const [value] = constraint.constraints;
  if (isJsonScalar(value)) draft.constant = { value };
  else context.gaps.customGap(context.path, constraint.name);
}

/** `@MinLength()`: a string with a `minLength`. */
function minLengthRule(
  constraint: FieldConstraint,
  draft: ValueDraft,
  context: ValueContext,
): void {
  lengthBounds(constraint.constraints[0], undefined, constraint, draft, context);
}

/** `@MaxLength()`: a string with a `maxLength`. */
function maxLengthRule(
  constraint: FieldConstraint,
  draft: ValueDraft,
  context: ValueContext,
): void {
  lengthBounds(undefined, constraint.constraints[0], constraint, draft, context);
}

/** `@Length()`: a string with a `minLength` and a `maxLength`. */
function isLengthRule(constraint: FieldConstraint, draft: ValueDraft, context: ValueContext): void {
  const [min, max] = constraint.constraints;
  lengthBounds(min, max, constraint, draft, context);
}

/** Makes the value a string with the given length bounds, which strict mode leaves out. */
function lengthBounds(
  min: unknown,
  max: unknown,
  constraint: FieldConstraint,
  draft: ValueDraft,
  context: ValueContext,
): void {
  draft.addType('string');
  if (context.strict) {
    context.gaps.strictGap(context.path, constraint.name, 'minLength/maxLength');
    return;
  }
  if (typeof min === 'number') draft.keywords.raise('minLength', min);
  if (typeof max === 'number') draft.keywords.lower('maxLength', max);
}

/** `@Matches()`: a string with a `pattern`, unless its flags cannot be expressed. */
function matchesRule(constraint: FieldConstraint, draft: ValueDraft, context: ValueContext): void {
  const [pattern, modifiers] = constraint.constraints;
  draft.addType('string');
  addPattern(draft.keywords, pattern, modifiers, context.path, context.gaps);
}

/** `@IsUUID()`: format "uuid", which does not say the version. */
function isUuidRule(constraint: FieldConstraint, draft: ValueDraft, context: ValueContext): void {
  const [version] = constraint.constraints;
  addStringFormat('uuid', constraint, draft, context);
  if (version !== undefined && version !== 'all') {
    context.gaps.gap(
      context.path,
      'isUuid',
      `enforced at runtime only: the schema says format "uuid" but not the version (${JSON.stringify(version)})`,
    );
  }
}

/** `@IsDate()`: an ISO string, which only validates once `@Type(() => Date)` converts it. */
function isDateRule(constraint: FieldConstraint, draft: ValueDraft, context: ValueContext): void {
  addStringFormat('date-time', constraint, draft, context);
  if (context.field.declaredType !== Date) {
    context.gaps.gap(
      context.path,
      'isDate',
      'fails for every JSON value: add @Type(() => Date) so the ISO string is converted to a Date',
    );
  }
}

/** `@Min()`: a number with a `minimum`. */
function minRule(constraint: FieldConstraint, draft: ValueDraft): void {
  const [min] = constraint.constraints;
  draft.addType('number');
  if (typeof min === 'number') draft.keywords.raise('minimum', min);
}

/** `@Max()`: a number with a `maximum`. */
function maxRule(constraint: FieldConstraint, draft: ValueDraft): void {
  const [max] = constraint.constraints;
  draft.addType('number');
  if (typeof max === 'number') draft.keywords.lower('maximum', max);
}

/** `@IsPositive()`: a number above 0. */
function isPositiveRule(_constraint: FieldConstraint, draft: ValueDraft): void {
  draft.addType('number');
  draft.keywords.raise('exclusiveMinimum', 0);
}

/** `@IsNegative()`: a number below 0. */
function isNegativeRule(_constraint: FieldConstraint, draft: ValueDraft): void {
  draft.addType('number');
  draft.keywords.lower('exclusiveMaximum', 0);
}

/** `@IsNotEmpty()`: applied once the value's types are known. */
function isNotEmptyRule(_constraint: FieldConstraint, draft: ValueDraft): void {
  draft.notEmpty = true;
}

/** `@IsObject()`: a free-form object, which blocks strict mode. */
function isObjectRule(
  _constraint: FieldConstraint,
  draft: ValueDraft,
  context: ValueContext,
): void {
  draft.addType('object');
  context.gaps.blocker(
    context.path,
    'isObject',
    'is a free-form object; strict mode needs every property declared (use a class with @ValidateNested() and @Type())',
  );
}

/** The rule of each class-validator constraint the schema can express, by its registered name. */
const constraintRules = new Map<string, ConstraintRule>([
  ['isString', typeRule('string')],
  ['isInt', typeRule('integer')],
  ['isNumber', isNumberRule],
  ['isBoolean', typeRule('boolean')],
  ['isEnum', isEnumRule],
  ['isIn', isInRule],
  ['equals', equalsRule],
  ['minLength', minLengthRule],
  ['maxLength', maxLengthRule],
  ['isLength', isLengthRule],
  ['matches', matchesRule],
  ['isEmail', formatRule('email')],
  ['isUrl', formatRule('uri')],
  ['isUuid', isUuidRule],
  ['isDateString', formatRule('date-time')],
  ['isDate', isDateRule],
  ['min', minRule],
  ['max', maxRule],
  ['isPositive', isPositiveRule],
  ['isNegative', isNegativeRule],
  ['isNotEmpty', isNotEmptyRule],
  ['isObject', isObjectRule],
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
