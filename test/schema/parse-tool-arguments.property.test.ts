import fc from 'fast-check';

import { ToolValidationError } from '../../src/core/errors/tool-validation-error.js';
import { dump } from '../../src/schema/dump.js';
import { parseToolArguments } from '../../src/schema/parse-tool-arguments.js';
import { EmptyParams } from './zoo/empty-params.js';
import { LookupParams } from './zoo/lookup-params.js';
import { Address, LineItem, OrderParams, OrderStatus, Priority } from './zoo/order-params.js';
import { TreeParams } from './zoo/tree-params.js';

const classes = [LookupParams, OrderParams, TreeParams, EmptyParams] as const;

/** Keys that matter for prototype pollution and for the params classes, mixed with random ones. */
const keys = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'valueOf',
    'polluted',
    'entityId',
    'shipping',
    'items',
    'zip',
    'label',
    'children',
  ),
  fc.string(),
);

const hostileJson = fc.anything({
  key: keys,
  maxDepth: 4,
  values: [fc.jsonValue({ maxDepth: 1 })],
});

const anyValue = fc.anything({
  key: keys,
  maxDepth: 4,
  withBoxedValues: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withBigInt: true,
  withDate: true,
  withTypedArray: true,
  withSparseArray: true,
  withObjectString: true,
});

const prototypeNames = (proto: object) => Object.getOwnPropertyNames(proto).sort();
const objectNames = prototypeNames(Object.prototype);
const arrayNames = prototypeNames(Array.prototype);

function expectNoPollution(): void {
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  expect(prototypeNames(Object.prototype)).toEqual(objectNames);
  expect(prototypeNames(Array.prototype)).toEqual(arrayNames);
}

/** Resolves to the parsed instance, or to the error; fails on anything but ToolValidationError. */
async function outcome(params: new () => object, raw: unknown): Promise<unknown> {
  try {
    return await parseToolArguments(params, raw);
  } catch (error) {
    if (!(error instanceof ToolValidationError)) throw error;
    expect(error.issues.length).toBeGreaterThan(0);
    return error;
  }
}

const text = fc.string({ maxLength: 40 });

const address = fc
  .record(
    {
      street: text,
      zip: fc.stringMatching(/^\d{5}$/),
      city: fc.string({ maxLength: 40 }),
    },
    { requiredKeys: ['street', 'zip'] },
  )
  .map((fields) => Object.assign(new Address(), fields));

const lineItem = fc
  .record({ name: fc.string({ maxLength: 60 }), quantity: fc.integer({ min: 1 }) })
  .map((fields) => Object.assign(new LineItem(), fields));

/** Valid OrderParams instances. The coupon is never null: `dump` drops nulls, and it is required. */
const orders = fc
  .record(
    {
      shipping: address,
      billing: address,
      items: fc.array(lineItem, { minLength: 1, maxLength: 20 }),
      status: fc.constantFrom(...Object.values(OrderStatus)),
      priority: fc.constantFrom(Priority.Low, Priority.Normal, Priority.Urgent),
      coupon: text,
      tags: fc.uniqueArray(fc.string({ maxLength: 15 }), { maxLength: 5 }),
    },
    { requiredKeys: ['shipping', 'items', 'status', 'coupon'] },
  )
  .map((fields) => Object.assign(new OrderParams(), fields));

describe('parseToolArguments (properties)', () => {
  afterEach(expectNoPollution);

  it('should throw nothing but ToolValidationError for arbitrary JSON text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...classes), fc.json(), async (params, raw) => {
        await outcome(params, raw);
        expectNoPollution();
      }),
      { numRuns: 300 },
    );
  });

  it('should throw nothing but ToolValidationError for JSON text with hostile keys', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...classes), hostileJson, async (params, value) => {
        const raw = JSON.stringify(value) as string | undefined;
        await outcome(params, raw);
        expectNoPollution();
      }),
      { numRuns: 300 },
    );
  });

  it('should throw nothing but ToolValidationError for arbitrary decoded values', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...classes), anyValue, async (params, raw) => {
        await outcome(params, raw);
        expectNoPollution();
      }),
      { numRuns: 300 },
    );
  });

  it('should report every own __proto__ key, at any depth of a params class', async () => {
    await fc.assert(
      fc.asyncProperty(orders, fc.nat({ max: 2 }), async (order, where) => {
        const payload = dump(order) as Record<string, Record<string, unknown>[]>;
        const target = [payload, payload['shipping'], payload['items']?.[0]][where] as object;
        Object.defineProperty(target, '__proto__', {
          value: { polluted: true },
          enumerable: true,
        });
        const error = await outcome(OrderParams, JSON.stringify(payload));
        expect(error).toBeInstanceOf(ToolValidationError);
        const paths = (error as ToolValidationError).issues.map((issue) => issue.path);
        expect(paths).toEqual([['__proto__', 'shipping.__proto__', 'items[0].__proto__'][where]]);
      }),
      { numRuns: 100 },
    );
  });

  it('should round-trip valid instances through dump', async () => {
    await fc.assert(
      fc.asyncProperty(orders, fc.boolean(), async (order, asText) => {
        const dumped = dump(order);
        const parsed = await parseToolArguments(
          OrderParams,
          asText ? JSON.stringify(dumped) : dumped,
        );
        expect(parsed).toBeInstanceOf(OrderParams);
        expect(parsed.shipping).toBeInstanceOf(Address);
        expect(dump(parsed)).toEqual(dumped);
      }),
      { numRuns: 300 },
    );
  });
});
