import type { Class } from '../core/class-type.js';
import type { ToolValidationIssue } from '../core/errors/tool-validation-error.js';
import { acceptsForeign } from './accepts-foreign.js';
import {
  type CompiledClass,
  type CompiledField,
  type CompiledNested,
  compileParamsClass,
} from './compile-params.js';
import { generateBuilders } from './generate-builders.js';
import type { SchemaProfile } from './params-json-schema.js';
import type { ParamsShape } from './params-shape.js';
import { screenArguments } from './screen-arguments.js';

/** What a nested value that the fast path cannot build becomes. */
const unbuildable: unique symbol = Symbol('unbuildable');

/** Compiled classes by profile, `null` for a class that cannot be compiled. */
const cache = new WeakMap<Class, Partial<Record<SchemaProfile, CompiledClass | null>>>();

/**
 * The compiled form of `cls` for `profile`, compiled on first use;
 * `undefined` when the class is not compilable (cached as such).
 * @internal
 */
export function compiledParamsClass(cls: Class, profile: SchemaProfile): CompiledClass | undefined {
  let byProfile = cache.get(cls);
  if (byProfile === undefined) {
    byProfile = {};
    cache.set(cls, byProfile);
  }
  let compiled = byProfile[profile];
  if (compiled === undefined) {
    compiled = compileParamsClass(cls, profile) ?? null;
    if (compiled !== null) generateBuilders(compiled);
    byProfile[profile] = compiled;
  }
  return compiled ?? undefined;
}

/**
 * The fast path of `parseToolArguments`: when `paramsType` compiles, builds
 * the instance that class-transformer would build from the decoded arguments
 * and returns it if the screening would find nothing and class-validator
 * would accept it, without calling either. The class's generated builder
 * tries first, in one pass (it gives up on arguments whose keys are not in
 * declaration order, unless a fresh instance has every field);
 * {@link parseScreened} answers when it gives up. Returns `undefined`
 * whenever it is not sure, and never throws: the caller then takes the full
 * path, which gives the verdict and the messages.
 *
 * With `openai-strict` it reads the arguments before
 * `normalizeStrictArguments`, which only removes optional fields' `null`s
 * (and so never changes what the screening finds); the compiled class then
 * treats those `null`s as absent.
 * @internal
 */
export function parseCompiled(
  paramsType: Class,
  shape: ParamsShape,
  decoded: Record<string, unknown>,
  profile: SchemaProfile,
): object | undefined {
  const compiled = compiledParamsClass(paramsType, profile);
  if (compiled === undefined) return undefined;
  const fast = compiled.fast;
  if (fast !== undefined) {
    try {
      const built = fast(decoded, 1);
      if (built !== undefined) return built;
    } catch {
      return undefined;
    }
  }
  return parseScreened(compiled, shape, decoded);
}

/**
 * The fast path without the generated builder: screens the arguments and,
 * when the screening finds nothing, builds the instance from the clean copy.
 * `undefined` whenever it is not sure; never throws. @internal
 */
export function parseScreened(
  compiled: CompiledClass,
  shape: ParamsShape,
  decoded: Record<string, unknown>,
): object | undefined {
  try {
    const issues: ToolValidationIssue[] = [];
    const clean = screenArguments(shape, decoded, issues);
    return issues.length === 0 ? buildObject(compiled, clean) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Builds the instance that `plainToInstance(compiled.cls, plain)` would build,
 * and returns it when `validate` would accept it; `undefined` when it would
 * not, or when the fast path is not sure.
 *
 * `plain` comes from `screenArguments` without issues: fresh plain objects and
 * arrays holding only declared fields and JSON data. Free-form values are
 * therefore put into the instance as they are: class-transformer would copy
 * them into equal fresh objects, and nothing else holds them.
 */
function buildObject(
  compiled: CompiledClass,
  plain: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const instance = new compiled.cls();
  return compiled.predefined
    ? assignInFieldOrder(compiled, plain, instance)
    : assignInKeyOrder(compiled, plain, instance);
}

/** Assigns the arguments field by field; the instance already has every field as its own property. */
function assignInFieldOrder(
  compiled: CompiledClass,
  plain: Record<string, unknown>,
  instance: Record<string, unknown>,
): Record<string, unknown> | undefined {
  for (const field of compiled.fields) {
    const value = plain[field.key];
    if (value === undefined || (value === null && field.nullMeansAbsent)) {
      if (!acceptsForeign(field, instance[field.key])) return undefined;
    } else if (!assign(field, plain, instance, value)) {
      return undefined;
    }
  }
  return instance;
}

/** Assigns the arguments in their own key order, which then becomes the instance's key order. */
function assignInKeyOrder(
  compiled: CompiledClass,
  plain: Record<string, unknown>,
  instance: Record<string, unknown>,
): Record<string, unknown> | undefined {
  let assigned = 0;
  for (const key of Object.keys(plain)) {
    const field = compiled.byKey.get(key);
    const value = plain[key];
    if (field === undefined || value === undefined) return undefined;
    if (value === null && field.nullMeansAbsent) continue;
    if (!assign(field, plain, instance, value)) return undefined;
    assigned++;
  }
  if (assigned === compiled.fields.length) return instance;
  for (const field of compiled.fields) {
    const value = plain[field.key];
    const absent = value === undefined || (value === null && field.nullMeansAbsent);
    if (absent && !acceptsForeign(field, instance[field.key])) return undefined;
  }
  return instance;
}

/**
 * Converts one argument as class-transformer does, checks it as
 * class-validator would and assigns it. (class-transformer leaves a field
 * alone when the fresh instance holds a function there; compilation refuses
 * such classes.)
 */
function assign(
  field: CompiledField,
  plain: Record<string, unknown>,
  instance: Record<string, unknown>,
  value: unknown,
): boolean {
  const converted =
    field.nested === undefined
      ? value
      : buildNested(field.nested, instance, plain, field.key, value);
  if (converted === unbuildable || !acceptsBuilt(field, converted)) return false;
  instance[field.key] = converted;
  return true;
}

/**
 * Builds the value of a `@ValidateNested()` field: an instance from a plain
 * object, an array of instances from an array of plain objects, `null` as is.
 * `@Type`'s function is called as class-transformer calls it and must name
 * the compiled class.
 */
function buildNested(
  nested: CompiledNested,
  instance: Record<string, unknown>,
  plain: Record<string, unknown>,
  key: string,
  value: unknown,
): unknown {
  const type = nested.typeFunction({ newObject: instance, object: plain, property: key });
  if (type !== nested.compiled.cls) return unbuildable;
  if (value === null) return null;
  if (Array.isArray(value) !== nested.list) return unbuildable;
  if (!Array.isArray(value)) return buildItem(nested.compiled, value);
  const values: readonly unknown[] = value;
  const items: unknown[] = [];
  for (const entry of values) {
    const item = buildItem(nested.compiled, entry);
    if (item === unbuildable) return unbuildable;
    items.push(item);
  }
  return items;
}

function buildItem(compiled: CompiledClass, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return unbuildable;
  return buildObject(compiled, value as Record<string, unknown>) ?? unbuildable;
}

/**
 * Whether class-validator accepts a field's value that the fast path built
 * (nested instances already checked): `@IsOptional()` skips null, then every
 * constraint must hold, and a nested field must not be null.
 */
function acceptsBuilt(field: CompiledField, value: unknown): boolean {
  if (field.skipsNullish && (value === null || value === undefined)) return true;
  for (const check of field.checks) if (!check(value)) return false;
  return field.nested === undefined || value !== null;
}
