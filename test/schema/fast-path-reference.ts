/**
 * The reference the compiled fast path of parseToolArguments is checked
 * against: the class-transformer and class-validator path parseToolArguments
 * falls back to, called directly, and comparisons of the instances each path
 * builds.
 */
import {
  ToolValidationError,
  type ToolValidationIssue,
} from '../../src/core/errors/tool-validation-error.js';
import type { SchemaProfile } from '../../src/schema/params-json-schema.js';
import { readParamsShape } from '../../src/schema/params-shape.js';
import { parseWithClassValidator } from '../../src/schema/parse-tool-arguments.js';
import { isPlainObject } from '../../src/schema/plain-object.js';

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
  try {
    const instance = await parseWithClassValidator(
      params,
      readParamsShape(params),
      decoded,
      profile,
    );
    return { accepted: true, instance };
  } catch (error) {
    return { accepted: false, issues: ToolValidationError.is(error) ? error.issues : undefined };
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
