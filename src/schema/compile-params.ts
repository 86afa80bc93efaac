// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- ambient typing for a deep import, needed by every tsconfig
/// <reference path="./class-transformer-storage.d.ts" />
import { TransformationType, type TypeHelpOptions } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { getMetadataStorage, ValidationTypes } from 'class-validator';

import type { Class } from '../core/class-type.js';
import type { SchemaProfile } from './params-json-schema.js';
import {
  compileConstraint,
  hasGroups,
  type ValidationMetadata,
  type ValueCheck,
} from './compiled-checks.js';
import { type FieldShape, readParamsShape } from './params-shape.js';
import { reservedKeys } from './plain-object.js';
import { validationMetadataOf } from './validation-metadata.js';

/**
 * A params class compiled for the fast path of `parseToolArguments`: its
 * fields with their checks, in declaration order. @internal
 */
export interface CompiledClass {
  readonly cls: new () => Record<string, unknown>;
  readonly fields: readonly CompiledField[];
  readonly byKey: ReadonlyMap<string, CompiledField>;
  /**
   * Every field is an own property of a fresh instance (class fields), so
   * assigning the arguments field by field leaves the key order unchanged.
   */
  readonly predefined: boolean;
  /**
   * The builder generated for this class (`generateBuilders`), set once
   * every class of the compilation has one; `undefined` until then, or where
   * code generation is not available.
   */
  fast: FastBuilder | undefined;
}

/**
 * Builds the instance of a compiled class from plain arguments at nesting
 * `depth` (1 for the arguments themselves), checked as class-validator would
 * check it; `undefined` whenever it is not sure the full path would accept.
 * @internal
 */
export type FastBuilder = (
  value: Record<string, unknown>,
  depth: number,
) => Record<string, unknown> | undefined;

/** One field of a {@link CompiledClass}. @internal */
export interface CompiledField {
  readonly key: string;
  /** `@IsOptional()`: `null` and `undefined` skip every check. */
  readonly skipsNullish: boolean;
  /**
   * `null` means "absent" (an optional field in the `openai-strict` profile,
   * which `normalizeStrictArguments` removes): the instance keeps its default.
   */
  readonly nullMeansAbsent: boolean;
  /** The field's constraints, `{ each: true }` applied. */
  readonly checks: readonly ValueCheck[];
  /** The class of a `@ValidateNested()` field, built from plain objects as class-transformer builds it. */
  readonly nested: CompiledNested | undefined;
  /** Must be present (the screening reports it missing otherwise). */
  readonly required: boolean;
  /** Expects an array (the screening reports any other value but `null`). */
  readonly list: boolean;
  /** A numeric enum's member names, which the screening reports. */
  readonly enumGuard: FieldShape['enumGuard'];
}

/** The nested class of a field, and how class-transformer finds it. @internal */
export interface CompiledNested {
  /** The field expects an array of instances. */
  readonly list: boolean;
  /** `@Type(() => X)`'s function, called for every value as class-transformer calls it. */
  readonly typeFunction: (options: TypeHelpOptions) => unknown;
  /** The class it must name; may still be compiling when a class refers to itself. */
  readonly compiled: CompiledClass;
}

/**
 * Compiles `root` and every class nested in it for one schema profile, or
 * returns `undefined` when the fast path could not reproduce class-transformer
 * and class-validator exactly for one of them: a constraint it does not
 * implement, a `@ValidateIf`, groups, class-transformer's `@Transform`,
 * `@Expose`, `@Exclude` or discriminators, a `@Type` other than a nested
 * params class, a field shadowed by the prototype, a class that cannot be
 * built without arguments, or any misconfiguration `readParamsShape` lists.
 *
 * Assumes, as `readParamsShape` does, that constructing a params class always
 * defines the same own properties, with the same kinds of values (a function
 * never appears where the probe instance held none).
 * @internal
 */
export function compileParamsClass(root: Class, profile: SchemaProfile): CompiledClass | undefined {
  try {
    return new Compiler(profile === 'openai-strict').compile(root);
  } catch {
    return undefined;
  }
}

class Compiler {
  private readonly storage = getMetadataStorage();
  /** Classes compiled (or being compiled) in this run; a failure anywhere fails the root. */
  private readonly compiled = new Map<Class, CompiledClass>();

  /** @param strict - `null` for an optional field means "absent" (the `openai-strict` profile). */
  constructor(private readonly strict: boolean) {}

  compile(cls: Class): CompiledClass | undefined {
    const known = this.compiled.get(cls);
    if (known !== undefined) return known;
    const probe = constructProbe(cls);
    const shape = readParamsShape(cls);
    if (probe === undefined || shape.problems.length > 0 || shape.fields.size === 0)
      return undefined;
    if (!transformsPlainly(cls)) return undefined;
    const byField = this.validationMetadata(cls);
    if (byField.size !== shape.fields.size) return undefined;
    const fields: CompiledField[] = [];
    const byKey = new Map<string, CompiledField>();
    const result: CompiledClass = {
      cls: cls as unknown as CompiledClass['cls'],
      fields,
      byKey,
      predefined: [...shape.fields.keys()].every((key) => Object.hasOwn(probe, key)),
      fast: undefined,
    };
    this.compiled.set(cls, result);
    for (const field of shape.fields.values()) {
      const metadatas = byField.get(field.name);
      const compiledField =
        metadatas === undefined ? undefined : this.field(cls, field, metadatas, probe);
      if (compiledField === undefined) return undefined;
      fields.push(compiledField);
      byKey.set(field.name, compiledField);
    }
    return result;
  }

  /** The metadata class-validator's `validate` reads for an instance of `cls`, by field. */
  private validationMetadata(cls: Class): Map<string, ValidationMetadata[]> {
    const byField = new Map<string, ValidationMetadata[]>();
    for (const metadata of validationMetadataOf(cls)) {
      const list = byField.get(metadata.propertyName) ?? [];
      list.push(metadata);
      byField.set(metadata.propertyName, list);
    }
    return byField;
  }

  private field(
    cls: Class,
    field: FieldShape,
    metadatas: readonly ValidationMetadata[],
    probe: object,
  ): CompiledField | undefined {
    const key = field.name;
    if (field.conditional || reservedKeys.has(key) || key in cls.prototype) return undefined;
    if (!isPlainDataProperty(probe, key)) return undefined;
    if (
      defaultMetadataStorage.findTransformMetadatas(cls, key, TransformationType.PLAIN_TO_CLASS)
        .length > 0
    )
      return undefined;
    const checks: ValueCheck[] = [];
    let skipsNullish = false;
    let validatesNested = false;
    for (const metadata of metadatas) {
      if (hasGroups(metadata)) return undefined;
      switch (metadata.type) {
        case ValidationTypes.WHITELIST:
          break;
        case ValidationTypes.CONDITIONAL_VALIDATION:
          if (!isGenuineIsOptional(metadata)) return undefined;
          skipsNullish = true;
          break;
        case ValidationTypes.NESTED_VALIDATION:
          validatesNested = true;
          break;
        case ValidationTypes.CUSTOM_VALIDATION:
        case ValidationTypes.IS_DEFINED: {
          const check = compileConstraint(this.storage, metadata);
          if (check === undefined) return undefined;
          checks.push(check);
          break;
        }
        default:
          return undefined;
      }
    }
    const nested = this.nested(cls, field, validatesNested);
    if (nested === null) return undefined;
    return {
      key,
      skipsNullish,
      nullMeansAbsent: this.strict && field.optional,
      checks,
      nested,
      required: field.required,
      list: field.list,
      enumGuard: field.enumGuard,
    };
  }

  /**
   * The nested class of a field, `undefined` for a field without
   * `@ValidateNested()`, or `null` when class-transformer would build the
   * value in a way the fast path does not.
   */
  private nested(
    cls: Class,
    field: FieldShape,
    validatesNested: boolean,
  ): CompiledNested | undefined | null {
    // The storage's typings claim a result even when no `@Type` exists.
    const type = defaultMetadataStorage.findTypeMetadata(cls, field.name) as
      ReturnType<typeof defaultMetadataStorage.findTypeMetadata> | undefined;
    if (!validatesNested) return type === undefined ? undefined : null;
    if (type === undefined || field.nested === undefined) return null;
    if ((type.options as { discriminator?: unknown } | undefined)?.discriminator !== undefined)
      return null;
    const reflected: unknown = type.reflectedType;
    // An array value is built as `new reflectedType()`, which only these make a plain array.
    if (field.list ? ![Array, Object, undefined].includes(reflected as never) : reflected === Map)
      return null;
    if (reflected === Set) return null;
    const compiled = this.compile(field.nested);
    if (compiled === undefined) return null;
    return { list: field.list, typeFunction: type.typeFunction, compiled };
  }
}

/**
 * Whether class-transformer copies a plain object into `cls` key by key, as
 * the fast path does: no `@Expose()`, `@Exclude()` or exposure strategy.
 */
function transformsPlainly(cls: Class): boolean {
  return (
    defaultMetadataStorage.getStrategy(cls) === 'none' &&
    defaultMetadataStorage.getExposedMetadatas(cls).length === 0 &&
    defaultMetadataStorage.getExcludedMetadatas(cls).length === 0
  );
}

/** A fresh instance of `cls`, or `undefined` when it cannot be built as class-transformer builds it. */
function constructProbe(cls: Class): object | undefined {
  const prototype = (cls as { prototype?: unknown }).prototype;
  if (typeof prototype !== 'object' || prototype === null) return undefined;
  if ((prototype as { constructor?: unknown }).constructor !== cls) return undefined;
  try {
    const probe = new (cls as unknown as new () => object)();
    return Object.isExtensible(probe) ? probe : undefined;
  } catch {
    return undefined;
  }
}

/** The field is absent from a fresh instance, or a writable data property holding no function. */
function isPlainDataProperty(probe: object, key: string): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(probe, key);
  if (descriptor === undefined) return true;
  return (
    descriptor.writable === true &&
    descriptor.enumerable === true &&
    !(descriptor.value instanceof Function)
  );
}

/**
 * Whether a conditional record is `@IsOptional()`'s: named so, and skipping
 * exactly the values `null` and `undefined` of its field.
 */
function isGenuineIsOptional(metadata: ValidationMetadata): boolean {
  if (metadata.name !== 'isOptional' || metadata.validateIf !== undefined) return false;
  const condition: unknown = Array.isArray(metadata.constraints)
    ? metadata.constraints[0]
    : undefined;
  if (typeof condition !== 'function') return false;
  const key = metadata.propertyName;
  const holds = (value: unknown): boolean =>
    Boolean((condition as (object: object, value: unknown) => unknown)({ [key]: value }, value));
  try {
    return (
      !holds(null) &&
      !holds(undefined) &&
      [0, '', false, 'x', 1, {}, []].every((value) => holds(value))
    );
  } catch {
    return false;
  }
}
