import fc from 'fast-check';

import { ToolValidationError } from '../../src/core/errors/tool-validation-error.js';
import type { CompiledClass } from '../../src/schema/compile-params.js';
import {
  compiledParamsClass,
  parseCompiled,
  parseScreened,
} from '../../src/schema/compiled-parse.js';
import type { SchemaProfile } from '../../src/schema/params-json-schema.js';
import { readParamsShape } from '../../src/schema/params-shape.js';
import { parseToolArguments } from '../../src/schema/parse-tool-arguments.js';
import { isPlainObject } from '../../src/schema/plain-object.js';
import {
  decodeArguments,
  expectNoSharedObjects,
  expectSameStructure,
  referenceParse,
} from './fast-path-reference.js';
import type { FastPathEntry } from './zoo/fast-path-entry.js';
import { fastPathZoo } from './zoo/fast-path-zoo.js';

/** Runs per params class; `FAST_PATH_RUNS=50000` for a long local run. */
const runs = Number(process.env['FAST_PATH_RUNS'] ?? 2_000);

/** Values that sit on or near the zoo's bounds, types and enum members. */
const nasty = fc.oneof(
  fc.constantFrom<unknown>(
    undefined,
    null,
    '',
    ' ',
    0,
    -0,
    1,
    -1,
    2,
    3,
    1.5,
    -100,
    150,
    151,
    Number.NaN,
    Infinity,
    -Infinity,
    1e21,
    true,
    false,
    '5',
    'v1',
    'light',
    'Low',
    'High',
    'email',
    'a',
    'ab',
    'xX',
    '\u{1F600}\u{1F600}\u{1F600}',
    'e\uFE0Fe\uFE0Fe\uFE0F',
    [],
    [null],
    ['a', 'a'],
    [1, -1],
    {},
    { label: 'x' },
    { lat: 0, lng: 0 },
    { name: 'x' },
  ),
  fc.string({ maxLength: 14 }),
  fc.integer({ min: -200, max: 300 }),
  fc.double(),
  fc.jsonValue({ maxDepth: 2 }),
);

type Edit = readonly [path: readonly number[], operation: 'set' | 'delete' | 'add', value: unknown];

const edit: fc.Arbitrary<Edit> = fc.tuple(
  fc.array(fc.nat(), { maxLength: 4 }),
  fc.constantFrom('set', 'delete', 'add'),
  nasty,
);

/** Applies `edit` to the object or array `path` leads to (each index picks a child, modulo). */
function applyEdit(root: unknown, [path, operation, value]: Edit, keys: readonly string[]): void {
  let target = root;
  for (const index of path.slice(0, -1)) {
    const children = childrenOf(target);
    const child = children[index % Math.max(children.length, 1)];
    if (child === undefined) break;
    target = child;
  }
  if (typeof target !== 'object' || target === null) return;
  const record = target as Record<string, unknown>;
  const existing = Object.keys(record);
  const pick = path.at(-1) ?? 0;
  const key =
    operation === 'add'
      ? [...keys, 'extra', '__proto__'][pick % (keys.length + 2)]
      : existing[pick % Math.max(existing.length, 1)];
  if (key === undefined) return;
  if (operation === 'delete') {
    if (Array.isArray(target)) target.splice(Number(key), 1);
    else Reflect.deleteProperty(record, key);
  } else {
    // A copy: the constants of `nasty` are shared between runs.
    Object.defineProperty(record, key, {
      value: structuredClone(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
}

function childrenOf(value: unknown): unknown[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).filter((child) => typeof child === 'object' && child !== null);
}

/** Valid, near-valid (valid with a few edits anywhere) and garbage arguments, as values or JSON text. */
function argumentsFor(entry: FastPathEntry): fc.Arbitrary<unknown> {
  const keys = [...readParamsShape(entry.params).fields.keys()];
  const nearValid = fc
    .tuple(entry.valid, fc.array(edit, { minLength: 1, maxLength: 3 }))
    .map(([payload, edits]) => {
      const copy = structuredClone(payload);
      for (const change of edits) applyEdit(copy, change, keys);
      return copy;
    });
  const garbage = fc.oneof(
    fc.dictionary(fc.constantFrom(...keys, 'extra', '__proto__', 'constructor'), nasty, {
      maxKeys: keys.length + 1,
    }),
    fc.anything({ maxDepth: 3, withNullPrototype: true }),
  );
  const decoded = fc.oneof(
    { weight: 3, arbitrary: entry.valid },
    { weight: 4, arbitrary: nearValid },
    { weight: 1, arbitrary: garbage },
  );
  return fc
    .tuple(decoded, fc.boolean())
    .map(([value, asText]) =>
      asText ? ((JSON.stringify(value) as string | undefined) ?? '') : value,
    );
}

/** What the generated builder alone makes of decoded arguments (`undefined`: it gives up). */
function buildGenerated(compiled: CompiledClass, decoded: Record<string, unknown>) {
  try {
    return compiled.fast?.(decoded, 1);
  } catch {
    return undefined;
  }
}

/**
 * Throws unless `actual` is `expected` (`Object.is`): what `expect(actual).toBe(expected)`
 * checks, without the cost of a matcher (jest builds an error object for each
 * call), which the hot loop below pays tens of thousands of times; fast-check
 * reports the failing arguments either way.
 */
function same(actual: unknown, expected: unknown, what: string): void {
  if (!Object.is(actual, expected)) {
    throw new Error(`${what}: got ${String(actual)}, expected ${String(expected)}`);
  }
}

/** Resolves to the parsed instance, or to the ToolValidationError. */
async function outcome(params: new () => object, raw: unknown, profile: SchemaProfile) {
  try {
    return await parseToolArguments(params, raw, { profile });
  } catch (error) {
    if (!(error instanceof ToolValidationError)) throw error;
    return error;
  }
}

describe('the compiled fast path of parseToolArguments (properties)', () => {
  it.each(fastPathZoo.map((entry) => [entry.name, entry] as const))(
    '%s: agrees with class-transformer + class-validator',
    async (_name, entry) => {
      let acceptedRuns = 0;
      let builtRuns = 0;
      await fc.assert(
        fc.asyncProperty(
          argumentsFor(entry),
          fc.constantFrom<SchemaProfile>('standard', 'openai-strict'),
          async (raw, profile) => {
            const reference = await referenceParse(entry.params, raw, profile);
            if (reference.accepted) acceptedRuns++;
            const compiled = compiledParamsClass(entry.params, profile);
            same(compiled !== undefined, entry.compilable, 'compiled');

            const decoded = decodeArguments(raw);
            if (compiled !== undefined && isPlainObject(decoded)) {
              const shape = readParamsShape(entry.params);
              const fast = parseCompiled(entry.params, shape, decoded, profile);
              same(fast !== undefined, reference.accepted, 'parseCompiled accepted');
              if (fast !== undefined && reference.accepted) {
                expectSameStructure(fast, reference.instance);
                expectNoSharedObjects(fast, decoded);
              }

              // Each half alone: the screened path accepts exactly what the reference accepts;
              // the generated builder may give up, but never accepts anything else.
              const screened = parseScreened(compiled, shape, decoded);
              same(screened !== undefined, reference.accepted, 'parseScreened accepted');
              if (screened !== undefined && reference.accepted) {
                expectSameStructure(screened, reference.instance);
                expectNoSharedObjects(screened, decoded);
              }
              const built = buildGenerated(compiled, decoded);
              if (built !== undefined) {
                builtRuns++;
                same(reference.accepted, true, 'the reference accepted what the builder built');
                if (reference.accepted) {
                  expectSameStructure(built, reference.instance);
                  expectNoSharedObjects(built, decoded);
                }
              }
            }

            const actual = await outcome(entry.params, raw, profile);
            if (reference.accepted) {
              expectSameStructure(actual, reference.instance);
            } else {
              same(
                actual instanceof ToolValidationError,
                true,
                'rejected with a ToolValidationError',
              );
              if (reference.issues !== undefined) {
                expect((actual as ToolValidationError).issues).toEqual(reference.issues);
              }
            }
          },
        ),
        { numRuns: runs },
      );
      // The generators must exercise acceptance, not only rejection, and the builder must take part.
      expect(acceptedRuns).toBeGreaterThan(runs / 10);
      if (entry.compilable) expect(builtRuns).toBeGreaterThan(runs / 100);
    },
    600_000,
  );
});
