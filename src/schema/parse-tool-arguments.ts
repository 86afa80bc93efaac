import {
  type ClassConstructor,
  type ClassTransformOptions,
  plainToInstance,
} from 'class-transformer';
import { validate, validateSync, type ValidatorOptions } from 'class-validator';

import { describeThrown } from '../core/errors/describe-thrown.js';
import {
  ToolValidationError,
  type ToolValidationIssue,
} from '../core/errors/tool-validation-error.js';
import { parseCompiled } from './compiled-parse.js';
import { normalizeStrictArguments } from './normalize-strict-arguments.js';
import type { SchemaProfile } from './params-json-schema.js';
import { type ParamsShape, readParamsShape } from './params-shape.js';
import { isPlainObject } from './plain-object.js';
import { screenArguments } from './screen-arguments.js';
import { toValidationIssues } from './validation-issues.js';
import { decodeArguments } from './decode-arguments.js';

/** Options of {@link parseToolArguments}. */
export interface ParseToolArgumentsOptions {
  /**
   * The schema profile the model was shown. With `openai-strict`, `null` for an
   * optional field means "absent" and is removed first ({@link normalizeStrictArguments}).
   * Defaults to `standard`.
   */
  readonly profile?: SchemaProfile;
}

/** Implicit conversion stays off: `"5"` for an `@IsInt()` field is reported, never turned into 5. */
const transformOptions: ClassTransformOptions = Object.freeze({
  enableImplicitConversion: false,
  excludeExtraneousValues: false,
  exposeDefaultValues: false,
  exposeUnsetFields: true,
  enableCircularCheck: false,
  ignoreDecorators: false,
  strategy: 'exposeAll',
  excludePrefixes: [],
});

const validatorOptions: ValidatorOptions = Object.freeze({
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  stopAtFirstError: false,
  skipMissingProperties: false,
  skipNullProperties: false,
  skipUndefinedProperties: false,
  dismissDefaultMessages: false,
  always: false,
  strictGroups: false,
  enableDebugMessages: false,
  validationError: { target: false, value: true },
});

const noArguments = 'Tool does not accept any arguments.';

/**
 * Turns a tool call's arguments (JSON text, or an already-decoded value) into a
 * validated instance of `paramsType`, with class-transformer and
 * class-validator. Unknown keys are rejected at every level, `__proto__` and
 * other reserved keys included; nothing is converted implicitly (`"5"` is not
 * an integer); a field is required unless it is `@IsOptional()`, has a
 * default value or a `@ValidateIf`. `null` for an `@IsOptional()` field is
 * accepted as class-validator accepts it, and reaches the handler as `null`
 * unless the profile is `openai-strict`. Empty text or `undefined` counts as `{}`.
 *
 * Valid arguments of a params class made only of constraints affordance
 * checks itself skip class-transformer and class-validator: a checker compiled
 * once per class and profile builds the same instance. Every other class, and
 * every rejected call, takes the class-transformer and class-validator path.
 *
 * @throws ToolValidationError listing every problem at once, each with its
 * field path: dotted keys and bracketed indexes (`address.zip`,
 * `items[2].name`), keys that are not identifiers quoted (`meta["a b"]`), and
 * `''` for the whole payload. Nothing else is ever thrown, whatever the input.
 */
export function parseToolArguments<T>(
  paramsType: new (...args: never[]) => T,
  raw: unknown,
  options?: ParseToolArgumentsOptions,
): Promise<T> {
  // No `async`: an accepted call settles in one hop, and nothing is ever thrown synchronously.
  try {
    const parsed = parseToolArgumentsNow(paramsType, raw, options);
    return parsed instanceof Promise ? parsed : Promise.resolve(parsed);
  } catch (error) {
    return Promise.reject(asValidationError(paramsType, error));
  }
}

/**
 * {@link parseToolArguments}, answering at once when it can: the instance
 * itself when the compiled fast path accepts the arguments (or the class has
 * no fields), a promise only when class-validator runs. Throws (rather than
 * rejects) a `ToolValidationError` found before class-validator runs; a tool
 * call then needs no promise to decode its arguments. @internal
 */
export function parseToolArgumentsNow<T>(
  paramsType: new (...args: never[]) => T,
  raw: unknown,
  options?: ParseToolArgumentsOptions,
): T | Promise<T> {
  return parseArgumentsWith(paramsType, raw, options, (shape, decoded, profile) =>
    parseWithClassValidator(paramsType, shape, decoded, profile).catch((error: unknown) => {
      throw asValidationError(paramsType, error);
    }),
  );
}

/**
 * The steps every form of {@link parseToolArguments} shares: decode, check the
 * payload is an object, answer a class without fields, try the compiled fast
 * path, and hand anything else to `full` (class-validator, awaited or not).
 * Whatever goes wrong before `full` answers is thrown as a `ToolValidationError`.
 * @internal
 */
export function parseArgumentsWith<T, R>(
  paramsType: new (...args: never[]) => T,
  raw: unknown,
  options: ParseToolArgumentsOptions | undefined,
  full: (
    shape: ParamsShape,
    decoded: Record<string, unknown>,
    profile: SchemaProfile | undefined,
  ) => R,
): T | R {
  try {
    const decoded = decodeArguments(raw, paramsType);
    if (!isPlainObject(decoded)) {
      return fail(paramsType, `Arguments must be a JSON object; got ${describeValue(decoded)}.`);
    }
    const shape = readParamsShape(paramsType);
    if (shape.fields.size === 0) {
      if (Object.keys(decoded).length > 0) return fail(paramsType, noArguments);
      return plainToInstance(paramsType as ClassConstructor<T>, {}, transformOptions);
    }
    // The compiled fast path answers only for arguments it accepts; anything else takes the full path.
    const fast = parseCompiled(paramsType, shape, decoded, options?.profile ?? 'standard');
    if (fast !== undefined) return fast as T;
    return full(shape, decoded, options?.profile);
  } catch (error) {
    throw asValidationError(paramsType, error);
  }
}

/** `error` as thrown by {@link parseToolArguments}: a `ToolValidationError` whatever went wrong. */
function asValidationError(
  paramsType: abstract new (...args: never[]) => unknown,
  error: unknown,
): ToolValidationError {
  if (ToolValidationError.is(error)) return error;
  return new ToolValidationError(
    [{ path: '', message: `Arguments could not be validated: ${describeThrown(error)}` }],
    { paramsType, cause: error },
  );
}

/**
 * The full path of {@link parseToolArguments} for a params class with fields:
 * strict-profile normalization, screening, class-transformer and
 * class-validator, issues merged. The compiled fast path must agree with it
 * (its property test calls this directly). @internal
 * @throws ToolValidationError listing every problem.
 */
export async function parseWithClassValidator<T>(
  paramsType: new (...args: never[]) => T,
  shape: ParamsShape,
  decoded: Record<string, unknown>,
  profile: SchemaProfile | undefined,
): Promise<T> {
  const issues: ToolValidationIssue[] = [];
  const instance = instanceToValidate(paramsType, shape, decoded, profile, issues);
  return checked(
    paramsType,
    instance,
    issues,
    await validate(instance as object, validatorOptions),
  );
}

/**
 * {@link parseWithClassValidator} with class-validator's `validateSync`, for a
 * params class without asynchronous constraints (the caller checks). @internal
 * @throws ToolValidationError listing every problem.
 */
export function parseWithClassValidatorSync<T>(
  paramsType: new (...args: never[]) => T,
  shape: ParamsShape,
  decoded: Record<string, unknown>,
  profile: SchemaProfile | undefined,
): T {
  const issues: ToolValidationIssue[] = [];
  const instance = instanceToValidate(paramsType, shape, decoded, profile, issues);
  return checked(paramsType, instance, issues, validateSync(instance as object, validatorOptions));
}

/** Normalizes, screens and converts `decoded` into an instance for class-validator, screening issues into `issues`. */
function instanceToValidate<T>(
  paramsType: new (...args: never[]) => T,
  shape: ParamsShape,
  decoded: Record<string, unknown>,
  profile: SchemaProfile | undefined,
  issues: ToolValidationIssue[],
): T {
  const normalized =
    profile === 'openai-strict'
      ? (normalizeStrictArguments(paramsType, decoded) as Record<string, unknown>)
      : decoded;
  const clean = screenArguments(shape, normalized, issues);
  try {
    return plainToInstance(paramsType as ClassConstructor<T>, clean, transformOptions);
  } catch (error) {
    issues.push({
      path: '',
      message: `Arguments could not be converted: ${describeThrown(error)}`,
    });
    throw new ToolValidationError(issues, { paramsType, cause: error });
  }
}

/** `instance` when neither the screening nor class-validator found a problem. */
function checked<T>(
  paramsType: new (...args: never[]) => T,
  instance: T,
  issues: ToolValidationIssue[],
  errors: Parameters<typeof toValidationIssues>[0],
): T {
  mergeValidationIssues(issues, errors);
  if (issues.length > 0) throw new ToolValidationError(issues, { paramsType });
  return instance;
}

/**
 * Adds class-validator's findings to the screening issues, dropping those the
 * screening already explains (an absent required field is reported once, as
 * "is required") and exact duplicates.
 */
function mergeValidationIssues(
  issues: ToolValidationIssue[],
  errors: Parameters<typeof toValidationIssues>[0],
): void {
  const screened = new Set(issues.map((issue) => issue.path));
  const seen = new Set(issues.map((issue) => `${issue.path}\u0000${issue.message}`));
  for (const issue of toValidationIssues(errors)) {
    if (issue.value === undefined) {
      // Declared fields without validators exist on every instance as `undefined`.
      if (issue.constraint === 'whitelistValidation' || screened.has(issue.path)) continue;
    }
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ path: issue.path, message: issue.message });
  }
}

function fail(paramsType: abstract new (...args: never[]) => unknown, message: string): never {
  throw new ToolValidationError(message, { paramsType });
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'symbol':
    case 'function':
    case 'undefined':
      return `a ${typeof value}`;
    case 'object':
      break;
  }
  try {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== '' ? `a ${name} object` : 'a non-plain object';
  } catch {
    return 'an object that cannot be read';
  }
}
