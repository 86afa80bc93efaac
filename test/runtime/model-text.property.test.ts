import fc from 'fast-check';

import { ToolResult } from 'affordance';

import { modelTextOf, resultForSession } from '../../src/runtime/events/event-fields.js';

/*
 * The model's text for a result is rendered from the session's copy of the
 * value where the two render alike (a flat record of primitives): for any
 * value, it must be exactly the text of rendering the value the handler
 * returned.
 */

const keys = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('__proto__', 'toString', 'constructor', 'toJSON', 'render', '0', '10', '-1'),
);
const primitives = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.boolean(),
  fc.double(),
  fc.integer(),
  fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, null, undefined),
);
const values = fc.oneof(
  { weight: 4, arbitrary: primitives },
  fc.array(primitives, { maxLength: 3 }),
  fc.constant(new Date(0)),
  fc.dictionary(fc.string({ maxLength: 3 }), primitives, { maxKeys: 2 }),
);

/** An object with `entries` as its own data properties (`__proto__` included), on `proto`. */
function record(entries: [string, unknown][], proto: object | null): object {
  const value = Object.create(proto) as object;
  for (const [key, item] of entries) {
    Object.defineProperty(value, key, {
      value: item,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return value;
}

describe('modelTextOf', () => {
  it('renders a value as the handler returned it, whether or not the copy is rendered instead', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(keys, values), { maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        (entries, withoutPrototype, excluded) => {
          const value = record(entries, withoutPrototype ? null : Object.prototype);
          const result = new ToolResult({
            message: 'Here.',
            value,
            success: true,
            excludeValueFromContext: excluded,
          });
          expect(modelTextOf(result, resultForSession(result))).toBe(result.toModelText());
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('renders a flat record from its copy exactly as JSON of the value', () => {
    const value = record(
      [
        ['b', 1],
        ['__proto__', 'own'],
        ['2', true],
        ['a', -0],
        ['é', 'x\u2028y'],
      ],
      Object.prototype,
    );
    const result = ToolResult.ok(value, 'Here.');
    const recorded = resultForSession(result);
    expect(recorded.value).not.toBe(value);
    expect(modelTextOf(result, recorded)).toBe(
      'Here.\n\n{"2":true,"b":1,"__proto__":"own","a":0,"é":"x\u2028y"}',
    );
    expect(modelTextOf(result, recorded)).toBe(result.toModelText());
  });

  it('renders a Proxy through its get trap, even where its descriptors say otherwise', () => {
    const value = new Proxy({ a: 1 }, { get: () => 'from get' });
    const result = ToolResult.ok(value, 'Here.');
    const recorded = resultForSession(result);
    expect(recorded.value).toEqual({ a: 1 });
    expect(modelTextOf(result, recorded)).toBe('Here.\n\n{"a":"from get"}');
  });
});
