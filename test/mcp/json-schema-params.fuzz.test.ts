/**
 * Hostile input for `paramsClassFromJsonSchema`: an MCP server can send any
 * JSON as a tool's input schema, and a model any arguments. Neither may crash
 * the conversion or the validation: a schema is converted or refused with
 * problems, and arguments are accepted or refused with a `ToolValidationError`.
 */
import fc from 'fast-check';

import { ToolValidationError } from 'affordance';
import { paramsClassFromJsonSchema } from 'affordance/mcp';
import { parseToolArguments } from 'affordance/provider';

const keywords = [
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'uniqueItems',
  'additionalProperties',
  'description',
  'anyOf',
  '$ref',
  'default',
  '__proto__',
  'constructor',
];
const typeNames = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null', 'date'];

/** Schema-shaped JSON: known and unknown keywords with values of any kind, nested. */
const schemaLike = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 2 }),
    fc.dictionary(
      fc.oneof(fc.constantFrom(...keywords), fc.string({ maxLength: 6 })),
      fc.oneof(
        fc.constantFrom(...typeNames),
        fc.array(fc.constantFrom(...typeNames), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 6 }), tie('schema'), { maxKeys: 3 }),
        fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), { maxLength: 3 }),
        tie('schema'),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      { maxKeys: 5 },
    ),
  ),
}));

/** A root object schema with schema-like properties, so some of them convert. */
const rootSchema = fc.record({
  type: fc.constant('object'),
  properties: fc.dictionary(fc.string({ maxLength: 8 }), schemaLike.schema, { maxKeys: 4 }),
  required: fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
});

/** Valid property schemas with odd bounds, so most convert and the validation is reached. */
const plausible = fc.letrec<{ property: Record<string, unknown> }>((tie) => ({
  property: fc.oneof(
    { depthSize: 'small' },
    fc.record(
      {
        type: fc.constant('string'),
        minLength: fc.nat(3),
        maxLength: fc.nat(6),
        enum: fc.array(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 3 }),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record(
      {
        type: fc.constantFrom('number', 'integer'),
        minimum: fc.integer({ min: -5, max: 5 }),
        maximum: fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 10 }),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({ type: fc.constantFrom('boolean', ['boolean', 'null'], ['string', 'null']) }),
    fc.record(
      {
        type: fc.constant('array'),
        items: tie('property'),
        minItems: fc.nat(2),
        uniqueItems: fc.boolean(),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({
      type: fc.constant('object'),
      properties: fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), tie('property'), {
        maxKeys: 2,
      }),
    }),
  ),
}));
const plausibleRoot = fc
  .dictionary(fc.string({ minLength: 1, maxLength: 6 }), plausible.property, {
    minKeys: 1,
    maxKeys: 4,
  })
  .chain((properties) =>
    fc.record({
      type: fc.constant('object'),
      properties: fc.constant(properties),
      required: fc.subarray(Object.keys(properties)),
    }),
  );

/** A schema and arguments for it: any JSON, or an object over the schema's own property names. */
const casesOfArguments = fc.oneof(plausibleRoot, rootSchema).chain((schema) => {
  const names = Object.keys(schema.properties);
  const objects =
    names.length === 0
      ? fc.jsonValue({ maxDepth: 3 })
      : fc.dictionary(fc.constantFrom(...names), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
  return fc.tuple(fc.constant(schema), fc.oneof(fc.jsonValue({ maxDepth: 3 }), objects, objects));
});

describe('paramsClassFromJsonSchema on hostile input', () => {
  it('converts or refuses any JSON as a schema, never throwing, and names each problem', () => {
    fc.assert(
      fc.property(fc.oneof(schemaLike.schema, rootSchema), (schema) => {
        const result = paramsClassFromJsonSchema(schema, 'Fuzzed');
        if (!result.ok) {
          expect(result.problems.length).toBeGreaterThan(0);
          for (const problem of result.problems) {
            expect(problem.pointer === '' || problem.pointer.startsWith('/')).toBe(true);
            expect(problem.message.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('validates any arguments against a converted class with a result or a ToolValidationError', async () => {
    let converted = 0;
    await fc.assert(
      fc.asyncProperty(casesOfArguments, async ([schema, args]) => {
        const result = paramsClassFromJsonSchema(schema, 'Fuzzed');
        if (!result.ok || result.params === undefined) return;
        converted += 1;
        try {
          await parseToolArguments(result.params, args);
        } catch (error) {
          expect(ToolValidationError.is(error)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
    // The generator must reach the validation, not only the refusals.
    expect(converted).toBeGreaterThan(50);
  });
});
