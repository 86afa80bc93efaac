/**
 * fast-check generators of planned evaluations for the dispatch properties:
 * tool names (known, unknown and odd), arguments (valid, mutated with hostile
 * keys and odd numbers, not JSON, JSON that is not an object, deeply nested,
 * huge), and the results and thrown values of the planned tools.
 */
import fc from 'fast-check';

import { ToolResult } from 'affordance';

import { Level, Mood, toolNames } from './dispatch-prompt.js';
import {
  deepArray,
  deepObject,
  Hostile,
  hostileDecodedArguments,
  hostileResults,
  hostileThrows,
  light,
} from './hostile-values.js';
import type { CallPlan, EvaluationPlan } from './run-planned-evaluation.js';

/** JSON text spliced verbatim into generated arguments (odd numbers JSON.stringify cannot write). */
class RawJson {
  constructor(readonly text: string) {}
  [fc.toStringMethod](): string {
    return `RawJson(${this.text})`;
  }
}

/** Writes `value` as JSON text, splicing {@link RawJson} verbatim; own `__proto__` keys are written too. */
function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map((item) => toJsonText(item)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = Object.keys(value).map(
      (key) => `${JSON.stringify(key)}:${toJsonText((value as Record<string, unknown>)[key])}`,
    );
    return `{${fields.join(',')}}`;
  }
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol')
    return 'null';
  return JSON.stringify(value);
}

/** Sets an own property, even `__proto__`. */
function withOwn(target: Record<string, unknown>, key: string, value: unknown): object {
  const copy = { ...target };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** Keys that matter for prototype pollution and field paths, and keys with odd unicode. */
const hostileKey = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'valueOf',
      'hasOwnProperty',
      '__defineGetter__',
      'polluted',
      '',
      ' ',
      'a.b',
      'a[0]',
      '["x"]',
      '\u0000',
      '\uD800',
      '\u202Eevil',
      'e\u0301',
      '𝒳',
      '\uFEFF',
      'items',
      'shipping',
      'zip',
      'query',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
);

/** Numbers as JSON text: odd spellings, beyond double range, unsafe integers, and invalid ones. */
const oddNumberText = fc.oneof(
  fc.constantFrom(
    '-0',
    '0.0',
    '-0.0',
    '1e308',
    '1e309',
    '-1e309',
    '1e-400',
    '5e-324',
    '9007199254740993',
    '123456789012345678901234567890',
    '0.30000000000000004',
    'NaN',
    'Infinity',
    '-Infinity',
    '0x10',
    '+1',
    '.5',
    '5.',
    '01',
    '1_000',
  ),
  fc.bigInt({ min: -(2n ** 90n), max: 2n ** 90n }).map((value) => value.toString()),
);

/** A value for a field: odd numbers (as text or strings), odd strings, wrong types. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  oddNumberText.map((text) => new RawJson(text)),
  oddNumberText,
  fc.constantFrom('NaN', '-0', '1e308', '12', ' 12 ', '', 'null', 'true', 'undefined'),
  fc.double(),
  fc.integer(),
  fc.constantFrom(null, true, false, [], {}, [null], { __valid: 1 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.jsonValue({ maxDepth: 3 }),
);

const text = (maxLength: number) => fc.string({ maxLength });

const address = fc.record(
  {
    street: text(30),
    zip: fc.stringMatching(/^\d{5}$/),
    city: text(20),
  },
  { requiredKeys: ['street', 'zip'] },
);

const lineItem = fc.record(
  {
    name: text(20),
    quantity: fc.integer({ min: 1, max: 300 }),
    price: fc.double({ min: 0, max: 1e6, noNaN: true }),
  },
  { requiredKeys: ['name', 'quantity'] },
);

const validArguments: Readonly<Record<string, fc.Arbitrary<Record<string, unknown>>>> = {
  create_order: fc.record(
    {
      shipping: address,
      billing: address,
      items: fc.array(lineItem, { minLength: 1, maxLength: 4 }),
      mood: fc.constantFrom(Mood.Calm, Mood.Loud),
      level: fc.constantFrom(Level.Low, Level.High),
      tags: fc.array(text(10), { maxLength: 3 }),
    },
    { requiredKeys: ['shipping', 'items', 'mood'] },
  ),
  save_note: fc.record(
    {
      title: fc.string({ minLength: 1, maxLength: 40 }),
      body: text(60),
      score: fc.oneof(
        fc.integer({ min: -1000, max: 1_000_000 }),
        fc.double({ min: -5, max: 5, noNaN: true }),
      ),
      pinned: fc.boolean(),
      tags: fc.array(
        fc.record({ label: text(10), weight: fc.integer() }, { requiredKeys: ['label'] }),
        { maxLength: 3 },
      ),
    },
    { requiredKeys: ['title', 'score'] },
  ),
  search: fc.record(
    { query: text(40), limit: fc.integer({ min: 1, max: 50 }) },
    { requiredKeys: ['query'] },
  ),
  lookup: fc.record({ id: fc.stringMatching(/^[a-z]{1,6}-\d{1,3}$/) }),
  peek: fc.record({ label: text(20) }, { requiredKeys: [] }),
  ping: fc.constant({}),
  produce: fc.constant({}),
  explode: fc.constant({}),
};

/** Puts `value` under `key` at a random depth of `target`'s object fields. */
function plant(
  target: Record<string, unknown>,
  path: readonly number[],
  key: string,
  value: unknown,
): object {
  const objectKeys = Object.keys(target).filter((name) => {
    const field = target[name];
    return typeof field === 'object' && field !== null && !Array.isArray(field);
  });
  const [step, ...rest] = path;
  if (step === undefined || objectKeys.length === 0) return withOwn(target, key, value);
  const name = objectKeys[step % objectKeys.length] as string;
  return withOwn(target, name, plant(target[name] as Record<string, unknown>, rest, key, value));
}

/** Valid arguments for `name`, then maybe mutated: hostile keys, odd field values, missing fields. */
function argumentsFor(name: string): fc.Arbitrary<object> {
  const valid: fc.Arbitrary<Record<string, unknown>> = Object.hasOwn(validArguments, name)
    ? (validArguments[name] as fc.Arbitrary<Record<string, unknown>>)
    : fc.constant({});
  return fc.oneof(
    { weight: 4, arbitrary: valid },
    {
      weight: 3,
      arbitrary: fc
        .tuple(valid, fc.array(fc.nat(), { maxLength: 3 }), hostileKey, oddValue)
        .map(([args, path, key, value]) => plant(args, path, key, value)),
    },
    {
      weight: 3,
      arbitrary: fc.tuple(valid, fc.nat(), oddValue).map(([args, pick, value]) => {
        const keys = Object.keys(args);
        if (keys.length === 0) return { value };
        return withOwn(args, keys[pick % keys.length] as string, value);
      }),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, fc.nat()).map(([args, pick]) => {
        const keys = Object.keys(args);
        const dropped = keys[pick % Math.max(1, keys.length)];
        return Object.fromEntries(Object.entries(args).filter(([key]) => key !== dropped));
      }),
    },
  );
}

/** Whole-argument texts that are not a JSON object, or are objects of an odd kind. */
const oddArgumentText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '   ',
    'null',
    'true',
    '0',
    '-0',
    '"{}"',
    '[]',
    '[{}]',
    '{',
    '{"a":',
    '}',
    'undefined',
    'NaN',
    '{"a":1}garbage',
    '{"a":1}{"b":2}',
    '\uFEFF{}',
    '\u0000',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"query":"a","query":"b"}',
    '{"query":"\\ud800"}',
    '{"query":"\u0000\u202E"}',
    "{'query':'single quotes'}",
    '{query: "unquoted"}',
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.json({ maxDepth: 3 }),
);

/** Huge and deeply nested argument texts, built lazily so counterexamples stay readable. */
const hugeArgumentText: fc.Arbitrary<Hostile> = fc.constantFrom(
  new Hostile('"[" nested 100,000 deep', () => '['.repeat(100_000) + ']'.repeat(100_000)),
  new Hostile(
    '{"a": nested 100,000 deep',
    () => '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000),
  ),
  new Hostile('an argument nested 70 deep under shipping', () =>
    JSON.stringify({ shipping: deepObject(70), items: [], mood: 'calm' }),
  ),
  new Hostile('arrays nested 70 deep', () => JSON.stringify({ items: deepArray(70) })),
  new Hostile('a 1 MB string field', () => JSON.stringify({ query: 'q'.repeat(1_000_000) })),
  new Hostile('a 1 MB key', () => JSON.stringify({ ['k'.repeat(1_000_000)]: 1 })),
  new Hostile('100,000 line items', () =>
    JSON.stringify({
      shipping: { street: 's', zip: '12345' },
      items: Array.from({ length: 100_000 }, () => ({ name: 'n', quantity: 1 })),
      mood: 'calm',
    }),
  ),
  new Hostile('20,000 unknown keys', () =>
    JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]))),
  ),
  new Hostile('1,000,000 numbers', () => `[${'1,'.repeat(999_999)}1]`),
);

/** Tool names: mostly the prompt's, sometimes unknown, empty, spaced, look-alike or inherited. */
export const toolName: fc.Arbitrary<string> = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...toolNames) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'ping ',
      ' ping',
      'PING',
      'create order',
      'pіng',
      'ping\u0000',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'valueOf',
      'prototype',
      'x'.repeat(300),
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

/** Suffixes that keep call ids unique but odd. */
const idSuffix = fc.constantFrom('', '', '', '__proto__', ' ', 'é', '\u0000', '-constructor');

const argumentTexts = new Map<string, fc.Arbitrary<string | Hostile | undefined>>();

/** Arguments as text for a call of `name` (built once per name and option). */
function argumentTextFor(
  name: string,
  withHuge: boolean,
): fc.Arbitrary<string | Hostile | undefined> {
  const key = `${withHuge ? 'huge' : 'small'}:${name}`;
  let arbitrary = argumentTexts.get(key);
  if (arbitrary === undefined) {
    arbitrary = buildArgumentText(name, withHuge);
    argumentTexts.set(key, arbitrary);
  }
  return arbitrary;
}

function buildArgumentText(
  name: string,
  withHuge: boolean,
): fc.Arbitrary<string | Hostile | undefined> {
  return fc.oneof(
    { weight: 280, arbitrary: argumentsFor(name).map((args) => toJsonText(args)) },
    { weight: 40, arbitrary: oddArgumentText },
    { weight: 20, arbitrary: fc.constant(undefined) },
    { weight: withHuge ? 1 : 0, arbitrary: hugeArgumentText },
  );
}

/** Options of {@link evaluationPlan}. */
export interface PlanOptions {
  /** Fewest calls per tool-calling turn. */
  readonly minCalls: number;
  /** Most calls per tool-calling turn. */
  readonly maxCalls: number;
  /** Most tool-calling turns (at least one). */
  readonly maxTurns: number;
  /** Include huge and deeply nested argument texts. */
  readonly huge: boolean;
}

/** A call with hostile names and argument texts; the planned tools behave plainly. */
export function argumentsCall(options: Pick<PlanOptions, 'huge'>): fc.Arbitrary<CallPlan> {
  return fc.tuple(toolName, idSuffix).chain(([name, suffix]) =>
    argumentTextFor(name, options.huge).map((args): CallPlan => ({
      name,
      args,
      idSuffix: suffix,
    })),
  );
}

/** Values fast-check makes up, of every kind, wrapped to print readably. */
const anything: fc.Arbitrary<Hostile> = fc
  .anything({
    key: hostileKey,
    maxDepth: 3,
    withBoxedValues: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withBigInt: true,
    withDate: true,
    withTypedArray: true,
    withSparseArray: true,
    withObjectString: true,
  })
  .map((value) => new Hostile(`generated ${fc.stringify(value)}`, () => value));

/** A value of `values`: the light ones often, the heavy ones rarely and only when `huge`. */
function zoo(values: readonly Hostile[], huge: boolean): fc.Arbitrary<Hostile> {
  const heavy = values.filter((value) => value.heavy);
  return fc.oneof(
    { weight: 60, arbitrary: fc.constantFrom(...light(values)) },
    { weight: huge && heavy.length > 0 ? 1 : 0, arbitrary: fc.constantFrom(...heavy, ...values) },
  );
}

function producedResult(options: Pick<PlanOptions, 'huge'>): fc.Arbitrary<Hostile> {
  return fc.oneof(
    { weight: 3, arbitrary: zoo(hostileResults, options.huge) },
    {
      weight: 1,
      arbitrary: anything.map(
        (value) => new Hostile(`ToolResult.ok(${value.label})`, () => ToolResult.ok(value.make())),
      ),
    },
  );
}

function thrownValue(options: Pick<PlanOptions, 'huge'>): fc.Arbitrary<Hostile> {
  return fc.oneof(
    { weight: 3, arbitrary: zoo(hostileThrows, options.huge) },
    { weight: 1, arbitrary: anything },
  );
}

/** A call of `produce` or `peek` whose handler returns a hostile result; other calls mixed in. */
export function resultCall(options: Pick<PlanOptions, 'huge'>): fc.Arbitrary<CallPlan> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .record({
          name: fc.constantFrom('produce', 'peek'),
          idSuffix,
          returns: producedResult(options),
          async: fc.boolean(),
        })
        .map((call): CallPlan => ({ ...call, args: undefined })),
    },
    { weight: 1, arbitrary: argumentsCall(options) },
  );
}

/** A call whose handler or `ToolInvoked` subscriber throws a hostile value; other calls mixed in. */
export function throwingCall(options: Pick<PlanOptions, 'huge'>): fc.Arbitrary<CallPlan> {
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .record({
          name: fc.constantFrom('explode', 'produce', 'peek'),
          idSuffix,
          throws: thrownValue(options),
          async: fc.boolean(),
        })
        .map((call): CallPlan => ({ ...call, args: undefined })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(argumentsCall(options), thrownValue(options))
        .map(([call, thrown]): CallPlan => ({ ...call, subscriberThrows: thrown })),
    },
    { weight: 1, arbitrary: argumentsCall(options) },
  );
}

/** A call whose arguments an adapter hands over already decoded, some of them hostile objects. */
export function decodedCall(options: Pick<PlanOptions, 'huge'>): fc.Arbitrary<CallPlan> {
  const decoded = fc.oneof(
    { weight: 2, arbitrary: zoo(hostileDecodedArguments, options.huge) },
    { weight: 1, arbitrary: anything },
  );
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .record({ name: toolName, idSuffix, args: decoded })
        .map((call): CallPlan => ({ ...call, decoded: true })),
    },
    { weight: 1, arbitrary: argumentsCall(options) },
  );
}

/** Any of the calls above. */
export function anyCall(options: Pick<PlanOptions, 'huge'>): fc.Arbitrary<CallPlan> {
  return fc.oneof(
    { weight: 6, arbitrary: argumentsCall(options) },
    { weight: 1, arbitrary: resultCall(options) },
    { weight: 1, arbitrary: throwingCall(options) },
    { weight: 1, arbitrary: decodedCall(options) },
  );
}

/** Evaluations of one to `maxTurns` tool-calling turns of `call`s. */
export function evaluationPlan(
  call: fc.Arbitrary<CallPlan>,
  options: Omit<PlanOptions, 'huge'>,
): fc.Arbitrary<EvaluationPlan> {
  return fc.array(
    fc.array(call, { minLength: options.minCalls, maxLength: options.maxCalls, size: 'max' }),
    { minLength: 1, maxLength: options.maxTurns, size: 'max' },
  );
}
