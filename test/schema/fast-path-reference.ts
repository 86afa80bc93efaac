/**
 * The reference the compiled fast path of parseToolArguments is checked
 * against: the full path, with class-transformer and class-validator called
 * directly, and comparisons of the instances each path builds.
 */
import { type ClassTransformOptions, plainToInstance } from 'class-transformer';
import { validate, type ValidatorOptions } from 'class-validator';

import type { ToolValidationIssue } from '../../src/core/errors/tool-validation-error.js';
import { normalizeStrictArguments } from '../../src/schema/normalize-strict-arguments.js';
import type { SchemaProfile } from '../../src/schema/params-json-schema.js';
import { readParamsShape } from '../../src/schema/params-shape.js';
import { isPlainObject } from '../../src/schema/plain-object.js';
import { screenArguments } from '../../src/schema/screen-arguments.js';
import { toValidationIssues } from '../../src/schema/validation-issues.js';

/** The options parseToolArguments passes to class-transformer. */
const transformOptions: ClassTransformOptions = {
  enableImplicitConversion: false,
  excludeExtraneousValues: false,
  exposeDefaultValues: false,
  exposeUnsetFields: true,
  enableCircularCheck: false,
  ignoreDecorators: false,
  strategy: 'exposeAll',
  excludePrefixes: [],
};

/** The options parseToolArguments passes to class-validator. */
const validatorOptions: ValidatorOptions = {
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
};

/** What the full path makes of some arguments: an instance, or the issues (when it got that far). */
export type ReferenceOutcome =
  | { readonly accepted: true; readonly instance: object }
  | { readonly accepted: false; readonly issues: readonly ToolValidationIssue[] | undefined };

/** Decodes arguments as parseToolArguments does; text that is not JSON becomes `undefined`. */
export function decodeArguments(raw: unknown): unknown {
  if (raw === undefined) return {};
  if (typeof raw !== 'string') return raw;
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The full path of parseToolArguments for a params class with fields:
 * normalize, screen, `plainToInstance`, `validate`, and the issues merged as
 * parseToolArguments merges them.
 */
export async function referenceParse(
  params: new () => object,
  raw: unknown,
  profile: SchemaProfile,
): Promise<ReferenceOutcome> {
  const decoded = decodeArguments(raw);
  if (!isPlainObject(decoded)) return { accepted: false, issues: undefined };
  const normalized =
    profile === 'openai-strict'
      ? (normalizeStrictArguments(params, decoded) as Record<string, unknown>)
      : decoded;
  const issues: ToolValidationIssue[] = [];
  let instance: object;
  try {
    const clean = screenArguments(readParamsShape(params), normalized, issues);
    instance = plainToInstance(params, clean, transformOptions);
    mergeValidationIssues(issues, await validate(instance, validatorOptions));
  } catch {
    return { accepted: false, issues: undefined };
  }
  return issues.length === 0 ? { accepted: true, instance } : { accepted: false, issues };
}

/** parseToolArguments' merge of class-validator's findings into the screening issues. */
function mergeValidationIssues(
  issues: ToolValidationIssue[],
  errors: Parameters<typeof toValidationIssues>[0],
): void {
  const screened = new Set(issues.map((issue) => issue.path));
  const seen = new Set(issues.map((issue) => `${issue.path}\u0000${issue.message}`));
  for (const issue of toValidationIssues(errors)) {
    if (issue.value === undefined) {
      if (issue.constraint === 'whitelistValidation' || screened.has(issue.path)) continue;
    }
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ path: issue.path, message: issue.message });
  }
}

/**
 * Throws unless `actual` and `expected` are the same structure: equal
 * primitives (`Object.is`), and objects with the same prototype, the same own
 * keys in the same order, the same property attributes and the same values,
 * at every level.
 */
export function expectSameStructure(actual: unknown, expected: unknown, path = '$'): void {
  if (typeof expected === 'function') {
    // Each construction makes its own closures: compare their source.
    if (typeof actual !== 'function' || String(actual) !== String(expected)) {
      throw new Error(`${path}: got ${describe(actual)}, expected a function`);
    }
    return;
  }
  if (typeof expected !== 'object' || expected === null) {
    if (!Object.is(actual, expected)) {
      throw new Error(`${path}: got ${describe(actual)}, expected ${describe(expected)}`);
    }
    return;
  }
  if (typeof actual !== 'object' || actual === null) {
    throw new Error(`${path}: got ${describe(actual)}, expected an object`);
  }
  if (Object.getPrototypeOf(actual) !== Object.getPrototypeOf(expected)) {
    throw new Error(`${path}: different prototypes`);
  }
  const actualKeys = Reflect.ownKeys(actual).map(String);
  const expectedKeys = Reflect.ownKeys(expected).map(String);
  if (actualKeys.join('\u0000') !== expectedKeys.join('\u0000')) {
    throw new Error(
      `${path}: keys [${actualKeys.join(', ')}], expected [${expectedKeys.join(', ')}]`,
    );
  }
  for (const key of Reflect.ownKeys(expected)) {
    const a = Object.getOwnPropertyDescriptor(actual, key) as PropertyDescriptor;
    const e = Object.getOwnPropertyDescriptor(expected, key) as PropertyDescriptor;
    for (const attribute of ['enumerable', 'writable', 'configurable', 'get', 'set'] as const) {
      if (a[attribute] !== e[attribute]) throw new Error(`${path}.${String(key)}: ${attribute}`);
    }
    expectSameStructure(a.value, e.value, `${path}.${String(key)}`);
  }
}

/** Throws if `built` holds any object of `input` (the instance must not share the caller's objects). */
export function expectNoSharedObjects(built: unknown, input: unknown): void {
  const inputs = new Set<unknown>();
  collectObjects(input, inputs);
  const outputs = new Set<unknown>();
  collectObjects(built, outputs);
  for (const object of outputs) {
    if (inputs.has(object)) throw new Error('the instance shares an object with the arguments');
  }
}

function collectObjects(value: unknown, into: Set<unknown>): void {
  if (typeof value !== 'object' || value === null || into.has(value)) return;
  into.add(value);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor !== undefined && 'value' in descriptor) collectObjects(descriptor.value, into);
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Object.is(value, -0)) return '-0';
  return typeof value === 'object' && value !== null ? 'an object' : String(value);
}
