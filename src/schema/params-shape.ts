import { getMetadataStorage, ValidationTypes } from 'class-validator';

import { getDesignType } from '../metadata/metadata-store.js';
import type { Class } from '../core/class-type.js';
import { listClassFields } from './class-fields.js';
import { readDeclaredType } from './declared-type.js';
import { type ValidationMetadata, validationMetadataOf } from './validation-metadata.js';

/** One class-validator constraint on a field, by its registered name (`isString`, `min`...). @internal */
export interface FieldConstraint {
  readonly name: string;
  /** The decorator's arguments as class-validator stores them. */
  readonly constraints: readonly unknown[];
  /** Applies to each item of an array rather than to the array (`{ each: true }`). */
  readonly each: boolean;
}

/**
 * What affordance needs to know about one validated field of a params class.
 * `optional`: an absent value skips validation (`@IsOptional()`, or a
 * `@ValidateIf` that returns false when the field is `undefined`).
 * `nullable`: `null` skips validation (`@IsOptional()`, or a `@ValidateIf`
 * that returns false when the field is `null`).
 * `conditional`: a `@ValidateIf` whose outcome depends on something other
 * than this field being null or absent.
 * @internal
 */
export interface FieldShape {
  readonly name: string;
  readonly constraints: readonly FieldConstraint[];
  readonly optional: boolean;
  readonly nullable: boolean;
  readonly conditional: boolean;
  /** Must be present: not optional, not conditional and without a default value. */
  readonly required: boolean;
  /** The class of a `@ValidateNested()` field, from its `@Type(() => X)`. */
  readonly nested: Class | undefined;
  /** Expects an array: `@IsArray()`, an array constraint, `design:type` Array or `@ValidateNested({ each: true })`. */
  readonly list: boolean;
  readonly designType: unknown;
  /** What `@Type(() => X)` names, if anything. */
  readonly declaredType: unknown;
  /** The value a zero-argument construction gives the field. */
  readonly defaultValue: unknown;
  /**
   * For `@IsEnum` of a numeric enum: its values. class-validator also accepts
   * the member names TypeScript adds as reverse mappings; the parser must not.
   */
  readonly enumGuard:
    | {
        readonly values: readonly unknown[];
        /** The reverse-mapping member names class-validator wrongly accepts. */
        readonly names: readonly unknown[];
        readonly each: boolean;
      }
    | undefined;
}

/** The validated fields of a params class, in declaration order (base class first). @internal */
export interface ParamsShape {
  readonly type: Class;
  readonly fields: ReadonlyMap<string, FieldShape>;
  /** Misconfigurations that make every call fail, as `[field, problem, fix]`. */
  readonly problems: readonly (readonly [field: string, problem: string, fix: string])[];
}

const arrayConstraints = new Set([
  'isArray',
  'arrayMinSize',
  'arrayMaxSize',
  'arrayNotEmpty',
  'arrayUnique',
  'arrayContains',
  'arrayNotContains',
]);

const builtInTypes = new Set<unknown>([
  String,
  Number,
  Boolean,
  Date,
  Object,
  Array,
  Map,
  Set,
  Symbol,
  BigInt,
  Function,
  Promise,
]);

const cache = new WeakMap<Class, ParamsShape>();

/** {@link analyseParamsClass}, computed once per class. @internal */
export function readParamsShape(cls: Class): ParamsShape {
  let shape = cache.get(cls);
  if (shape === undefined) {
    shape = analyseParamsClass(cls);
    cache.set(cls, shape);
  }
  return shape;
}

/**
 * Reads the class-validator, class-transformer and `design:type` metadata of
 * a params class into a {@link ParamsShape}. Never throws: problems are listed.
 * @internal
 */
export function analyseParamsClass(cls: Class): ParamsShape {
  const storage = getMetadataStorage();
  const byField = groupByField(validationMetadataOf(cls));
  const defaults = constructDefaults(cls);
  const problems: [string, string, string][] = [];
  const fields = new Map<string, FieldShape>();

  for (const [name, metadatas] of byField) {
    const sorted = sortMetadata(storage, metadatas);
    fields.set(name, readField(cls, name, sorted, defaults, problems));
  }

  for (const name of listClassFields(cls)) {
    if (!fields.has(name)) {
      problems.push([
        name,
        'has no class-validator decorator, so class-validator rejects it as a non-whitelisted property.',
        'Add a validator such as @IsString() (or @Allow() to accept any value), or remove the field from the class.',
      ]);
    }
  }
  return { type: cls, fields, problems };
}

/** The validation metadata of one field, sorted by what each kind says. */
interface SortedMetadata {
  readonly constraints: readonly FieldConstraint[];
  readonly nestedMetadata: ValidationMetadata | undefined;
  readonly conditions: readonly ((object: object, value: unknown) => unknown)[];
  readonly isOptional: boolean;
}

/** Sorts a field's metadata into its constraints, its `@ValidateNested()`, its conditions and `@IsOptional()`. */
function sortMetadata(
  storage: ReturnType<typeof getMetadataStorage>,
  metadatas: readonly ValidationMetadata[],
): SortedMetadata {
  const constraints: FieldConstraint[] = [];
  let nestedMetadata: ValidationMetadata | undefined;
  const conditions: ((object: object, value: unknown) => unknown)[] = [];
  let isOptional = false;
  for (const metadata of metadatas) {
    if (metadata.type === ValidationTypes.NESTED_VALIDATION) nestedMetadata = metadata;
    else if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      if (metadata.name === 'isOptional') isOptional = true;
      else conditions.push(metadata.constraints[0] as (object: object, value: unknown) => unknown);
    } else if (metadata.type === ValidationTypes.CUSTOM_VALIDATION) {
      constraints.push({
        name: constraintName(storage, metadata),
        constraints: Array.isArray(metadata.constraints) ? metadata.constraints : [],
        each: metadata.each,
      });
    }
  }
  return { constraints, nestedMetadata, conditions, isOptional };
}

/** The shape of field `name`; a `@ValidateNested()` without `@Type()` is added to `problems`. */
function readField(
  cls: Class,
  name: string,
  { constraints, nestedMetadata, conditions, isOptional }: SortedMetadata,
  defaults: Record<string, unknown> | undefined,
  problems: [string, string, string][],
): FieldShape {
  const probed = probeConditions(cls, name, conditions);
  const designType = getDesignType((cls as { prototype: object }).prototype, name);
  const declaredType = readDeclaredType(cls, name);
  const nested =
    nestedMetadata !== undefined && isUserClass(declaredType) ? declaredType : undefined;
  if (nestedMetadata !== undefined && nested === undefined) {
    const target = isUserClass(designType) ? designType.name : 'TheClass';
    problems.push([
      name,
      '@ValidateNested() has no @Type(() => SomeClass), so class-transformer never builds the nested instance and every call fails.',
      `Add @Type(() => ${target}) from class-transformer to the field.`,
    ]);
  }
  const optional = isOptional || probed.skipsUndefined;
  const defaultValue = defaults?.[name];
  return {
    name,
    constraints,
    optional,
    nullable: isOptional || probed.skipsNull,
    conditional: probed.conditional,
    required: !optional && !probed.conditional && defaultValue === undefined,
    nested,
    list:
      designType === Array ||
      nestedMetadata?.each === true ||
      constraints.some((c) => !c.each && arrayConstraints.has(c.name)),
    designType,
    declaredType,
    defaultValue,
    enumGuard: readEnumGuard(constraints),
  };
}

/** Groups validation metadata by field, base-class fields first, each in declaration order. */
function groupByField(metadatas: readonly ValidationMetadata[]): Map<string, ValidationMetadata[]> {
  const depth = (target: unknown): number => {
    let d = 0;
    for (let c: unknown = target; typeof c === 'function'; c = Object.getPrototypeOf(c)) d++;
    return d;
  };
  const ordered = metadatas
    .map((metadata, index) => ({ metadata, index, depth: depth(metadata.target) }))
    .filter((entry) => typeof entry.metadata.target === 'function')
    .sort((a, b) => a.depth - b.depth || a.index - b.index);
  const byField = new Map<string, ValidationMetadata[]>();
  for (const { metadata } of ordered) {
    const list = byField.get(metadata.propertyName) ?? [];
    list.push(metadata);
    byField.set(metadata.propertyName, list);
  }
  return byField;
}

function constraintName(
  storage: ReturnType<typeof getMetadataStorage>,
  metadata: ValidationMetadata,
): string {
  if (metadata.name !== undefined && metadata.name !== '') return metadata.name;
  const [constraint] = storage.getTargetValidatorConstraints(metadata.constraintCls);
  return constraint?.name ?? 'customValidation';
}

function isUserClass(value: unknown): value is Class {
  return typeof value === 'function' && !builtInTypes.has(value);
}

function constructDefaults(cls: Class): Record<string, unknown> | undefined {
  try {
    return new (cls as unknown as new () => Record<string, unknown>)();
  } catch {
    return undefined;
  }
}

/**
 * Tells what a field's `@ValidateIf` conditions mean by calling them on probe
 * objects: with the field null, absent, and set to a non-null placeholder.
 * `o => o.x !== null` skips null only; `o => o.x != null` skips both; a
 * condition that is false for the placeholder depends on other fields.
 */
function probeConditions(
  cls: Class,
  field: string,
  conditions: readonly ((object: object, value: unknown) => unknown)[],
): { skipsNull: boolean; skipsUndefined: boolean; conditional: boolean } {
  if (conditions.length === 0)
    return { skipsNull: false, skipsUndefined: false, conditional: false };
  const passes = (value: unknown): boolean | undefined => {
    const probe = Object.create((cls as { prototype: object }).prototype) as object;
    Object.defineProperty(probe, field, { value, enumerable: true, writable: true });
    try {
      return conditions.every((condition) => Boolean(condition(probe, value)));
    } catch {
      return undefined;
    }
  };
  const withValue = passes({});
  if (withValue !== true) return { skipsNull: false, skipsUndefined: false, conditional: true };
  return {
    skipsNull: passes(null) === false,
    skipsUndefined: passes(undefined) === false,
    conditional: false,
  };
}

function readEnumGuard(constraints: readonly FieldConstraint[]): FieldShape['enumGuard'] {
  const isEnum = constraints.find((c) => c.name === 'isEnum');
  if (isEnum === undefined) return undefined;
  const [entity, values] = isEnum.constraints;
  if (typeof entity !== 'object' || entity === null || !Array.isArray(values)) return undefined;
  const names = Object.keys(entity)
    .map((key) => (entity as Record<string, unknown>)[key])
    .filter((value) => !values.includes(value));
  return names.length === 0 ? undefined : { values, names, each: isEnum.each };
}
