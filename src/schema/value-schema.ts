import { jsonTypeOf } from './json-scalars.js';
import type { JsonType, MutableSchema } from './mutable-schema.js';
import type { FieldConstraint, FieldShape } from './params-shape.js';
import type { SchemaGaps } from './schema-gaps.js';
import { applyConstraint, type ValueContext, ValueDraft } from './value-constraints.js';

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
  const context: ValueContext = { path, field, strict, gaps };
  const draft = new ValueDraft();
  for (const constraint of constraints) applyConstraint(constraint, draft, context);

  resolveTypes(draft, designType);
  applyNotEmpty(draft, context);
  const { types, values, constant } = draft;
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
  draft.keywords.writeTo(schema);
  return schema;
}

/**
 * Gives a value no validator typed the types of its allowed values, else of
 * its design type; an integer validator wins over a number one.
 */
function resolveTypes(draft: ValueDraft, designType: unknown): void {
  const { types, values, constant } = draft;
  if (types.length === 0) {
    const implied = values ?? (constant === undefined ? [] : [constant.value]);
    for (const value of implied) draft.addType(jsonTypeOf(value));
    // 1 and 2.5 together are numbers, not integers.
    if (types.includes('number') && types.includes('integer')) draft.removeType('integer');
  }
  if (types.length === 0) {
    const fromDesign = designTypes.get(designType);
    if (fromDesign !== undefined) draft.addType(fromDesign);
  }
  if (types.includes('integer') && types.includes('number')) draft.removeType('number');
}

/** `@IsNotEmpty()`: `minLength` 1 for a string, else a gap. */
function applyNotEmpty(draft: ValueDraft, { path, strict, gaps }: ValueContext): void {
  if (!draft.notEmpty) return;
  if (draft.types.includes('string')) {
    if (strict) gaps.strictGap(path, 'isNotEmpty', 'minLength');
    else draft.keywords.raise('minLength', 1);
  } else if (draft.types.length === 0) {
    gaps.gap(
      path,
      'isNotEmpty',
      'enforced at runtime only: the field has no type the schema could restrict',
    );
  }
}

const designTypes = new Map<unknown, JsonType>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
]);

function nameOf(type: unknown): string {
  if (typeof type === 'function' && type.name !== '') return type.name;
  return 'unknown';
}
