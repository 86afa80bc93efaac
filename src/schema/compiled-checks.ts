import type { getMetadataStorage } from 'class-validator';

import {
  agreesWithValidator,
  type CheckFactory,
  type ValueCheck,
} from './agrees-with-validator.js';
import { formatChecks } from './format-checks.js';

export type { ValueCheck } from './agrees-with-validator.js';

/** One class-validator validation record, as the metadata storage returns it. @internal */
export type ValidationMetadata = ReturnType<
  ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']
>[number];

/** A factory for a constraint without arguments. */
const fixed =
  (check: ValueCheck): CheckFactory =>
  () =>
    check;

/** A factory for a constraint whose first argument is a number: `Min(3)`, `ArrayMaxSize(10)`. */
const bounded =
  (make: (bound: number) => ValueCheck): CheckFactory =>
  ([bound]) =>
    typeof bound === 'number' ? make(bound) : undefined;

const presentationSequences = /[^\uFE0F\uFE0E][\uFE0F\uFE0E]/g;
const surrogatePairs = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/**
 * The length validator.js's `isLength` gives a string (which class-validator's
 * length constraints use): astral characters and characters followed by a
 * variation selector count once.
 */
function lengthOf(text: string): number {
  if (!hasSurrogatesOrSelectors(text)) return text.length;
  const sequences = text.match(presentationSequences)?.length ?? 0;
  const pairs = text.match(surrogatePairs)?.length ?? 0;
  return text.length - sequences - pairs;
}

/** Whether `text` holds a surrogate or a variation selector (U+FE0E, U+FE0F), which change its length. */
function hasSurrogatesOrSelectors(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if ((code >= 0xd800 && code <= 0xdfff) || code === 0xfe0e || code === 0xfe0f) return true;
  }
  return false;
}

/**
 * `isLength(value, { min, max })` of validator.js, on a string. The length
 * {@link lengthOf} counts lies between 1 and `text.length` for a non-empty
 * text (the first code unit always counts), so most strings are decided
 * without scanning them.
 */
function lengthCheck(min: number, max: number | undefined): ValueCheck {
  const lower = min || 0;
  const upper = max ?? Infinity;
  return (value) => {
    if (typeof value !== 'string') return false;
    const units = value.length;
    if (units <= upper && (lower <= 0 || (lower <= 1 && units > 0))) return true;
    const length = lengthOf(value);
    return length >= lower && length <= upper;
  };
}

/** `@IsNumber(options)`: the options it can honour exactly are `allowNaN` and `allowInfinity`. */
function isNumberFactory([options]: readonly unknown[]): ValueCheck | undefined {
  if (typeof options !== 'object' || options === null) return undefined;
  const { allowNaN, allowInfinity, maxDecimalPlaces } = options as Record<string, unknown>;
  if (maxDecimalPlaces !== undefined) return undefined;
  const nan = Boolean(allowNaN);
  const infinity = Boolean(allowInfinity);
  return (value) => {
    if (typeof value !== 'number') return false;
    if (value === Infinity || value === -Infinity) return infinity;
    return Number.isNaN(value) ? nan : true;
  };
}

/** `@IsEnum(entity)`: the entity's values, read on every call as class-validator reads them. */
function isEnumFactory([entity]: readonly unknown[]): ValueCheck | undefined {
  if (typeof entity !== 'object' || entity === null) return undefined;
  const record = entity as Record<string, unknown>;
  return (value) => {
    // Own enumerable keys, as `Object.keys` lists them, without making the list.
    for (const key in record) {
      if (Object.hasOwn(record, key) && sameValueZero(record[key], value)) return true;
    }
    return false;
  };
}

/** `@IsIn(values)`: strict equality with one of the values, read on every call. */
function isInFactory([values]: readonly unknown[]): ValueCheck | undefined {
  if (!Array.isArray(values)) return undefined;
  const list: readonly unknown[] = values;
  return (value) => {
    for (let index = 0; index < list.length; index++) {
      // Like `some`, which class-validator calls, skip holes: a sparse list holds no `undefined`.
      if (list[index] === value && index in list) return true;
    }
    return false;
  };
}

/**
 * `@Matches(pattern, modifiers)`: a plain regular expression (or source and
 * flags) without the sticky flag, whose result then never depends on
 * `lastIndex`. A global pattern matches somewhere exactly when its non-global
 * copy does, so the copy is tested. Deciding this compiles the pattern and
 * never runs it: the probe runs a reference pattern with the same flags
 * instead (agrees-with-validator.ts).
 */
function matchesFactory([pattern, modifiers]: readonly unknown[]): ValueCheck | undefined {
  let source: string;
  let flags: string;
  if (pattern instanceof RegExp) {
    const own = Object.getOwnPropertyNames(pattern);
    if (Object.getPrototypeOf(pattern) !== RegExp.prototype || own.some((n) => n !== 'lastIndex'))
      return undefined;
    ({ source, flags } = pattern);
  } else if (
    typeof pattern === 'string' &&
    (modifiers === undefined || typeof modifiers === 'string')
  ) {
    source = pattern;
    flags = modifiers ?? '';
  } else return undefined;
  if (flags.includes('y')) return undefined;
  let regExp: RegExp;
  try {
    regExp = new RegExp(source, flags.replace('g', ''));
  } catch {
    return undefined;
  }
  return (value) => typeof value === 'string' && regExp.test(value);
}

/** `Array.prototype.includes` equality: `===`, except that NaN equals NaN. */
function sameValueZero(a: unknown, b: unknown): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

/**
 * The class-validator constraints compiled exactly, by registered name, each
 * with the semantics of class-validator 0.15 (and validator.js for lengths and
 * patterns). {@link agreesWithValidator} confirms them against the registered
 * validator before use.
 */
const factories: ReadonlyMap<string, CheckFactory> = new Map<string, CheckFactory>([
  ['isString', fixed((v) => typeof v === 'string' || v instanceof String)],
  ['isBoolean', fixed((v) => typeof v === 'boolean' || v instanceof Boolean)],
  ['isInt', fixed((v) => typeof v === 'number' && Number.isInteger(v))],
  ['isNumber', isNumberFactory],
  ['isPositive', fixed((v) => typeof v === 'number' && v > 0)],
  ['isNegative', fixed((v) => typeof v === 'number' && v < 0)],
  ['min', bounded((min) => (v) => typeof v === 'number' && v >= min)],
  ['max', bounded((max) => (v) => typeof v === 'number' && v <= max)],
  ['minLength', bounded((min) => lengthCheck(min, undefined))],
  ['maxLength', bounded((max) => lengthCheck(0, max))],
  [
    'isLength',
    ([min, max]) =>
      typeof min === 'number' && (max === undefined || typeof max === 'number')
        ? lengthCheck(min, max)
        : undefined,
  ],
  ['matches', matchesFactory],
  ['isIn', isInFactory],
  ['isEnum', isEnumFactory],
  [
    'equals',
    ([comparison]) =>
      (v) =>
        v === comparison,
  ],
  ['isNotEmpty', fixed((v) => v !== '' && v !== null && v !== undefined)],
  ['isDefined', fixed((v) => v !== undefined && v !== null)],
  [
    'isObject',
    fixed(
      (v) => v != null && (typeof v === 'object' || typeof v === 'function') && !Array.isArray(v),
    ),
  ],
  ['isArray', fixed((v) => Array.isArray(v))],
  ['arrayNotEmpty', fixed((v) => Array.isArray(v) && v.length > 0)],
  ['arrayMinSize', bounded((min) => (v) => Array.isArray(v) && v.length >= min)],
  ['arrayMaxSize', bounded((max) => (v) => Array.isArray(v) && v.length <= max)],
  ...formatChecks,
]);

/**
 * The check of one class-validator constraint record (`@IsString()`,
 * `@Min(3, { each: true })`...), or `undefined` when it cannot be reproduced
 * exactly: an unknown or custom validator, arguments it cannot honour, a
 * per-decorator `validateIf`, groups, or a registered validator that answers
 * differently on the probe values (or arguments holding a regular expression
 * other than `@Matches`'s, which the probe never runs).
 * @internal
 */
export function compileConstraint(
  storage: ReturnType<typeof getMetadataStorage>,
  metadata: ValidationMetadata,
): ValueCheck | undefined {
  let check = compiled.get(metadata);
  if (check === undefined) {
    check = compileUncached(storage, metadata) ?? null;
    compiled.set(metadata, check);
  }
  return check ?? undefined;
}

/** Checks already made, by record (a class compiled for both profiles probes its validators once). */
const compiled = new WeakMap<ValidationMetadata, ValueCheck | null>();

function compileUncached(
  storage: ReturnType<typeof getMetadataStorage>,
  metadata: ValidationMetadata,
): ValueCheck | undefined {
  const name = metadata.name;
  const factory = name === undefined ? undefined : factories.get(name);
  if (factory === undefined || metadata.validateIf !== undefined) return undefined;
  if (hasGroups(metadata)) return undefined;
  const args: readonly unknown[] = Array.isArray(metadata.constraints) ? metadata.constraints : [];
  const check = factory(args);
  if (check === undefined || !agreesWithValidator(storage, metadata, factory, args))
    return undefined;
  return metadata.each ? eachOf(check) : check;
}

/** Whether a record belongs to validation groups (class-validator may store `undefined` there). @internal */
export function hasGroups(metadata: ValidationMetadata): boolean {
  const groups = metadata.groups as readonly string[] | undefined;
  return groups !== undefined && groups.length > 0;
}

/**
 * `{ each: true }` as class-validator applies it: to every item of an array
 * (and every value of a set or map), else to the value itself.
 */
function eachOf(check: ValueCheck): ValueCheck {
  return (value) => {
    if (Array.isArray(value)) return value.every(check);
    if (value instanceof Map) return Array.from(value.values()).every(check);
    if (value instanceof Set) return Array.from(value).every(check);
    return check(value);
  };
}
