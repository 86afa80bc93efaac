/**
 * Per-call cost of validating a tool call's JSON arguments with JSON Schema
 * params (`ToolDefinition({ params: jsonSchema })`: screening, ajv, issue
 * mapping) against the validator alone (the same ajv-compiled function after
 * `JSON.parse`), and against ajv with its defaults (the `RegExp` engine for
 * patterns, which a hostile schema could hang). Goal: ≤ ×1.2 of the validator.
 */
import { createRequire } from 'node:module';

import type { Ajv as AjvInstance, Options } from 'ajv';

import { ToolDefinition, ToolResult } from '../../src/index.js';
import { compileJsonSchema } from '../../src/schema/compile-json-schema.js';
import { compare } from './measure.js';

const searchSchema = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, maxLength: 200 },
    locale: { type: 'string', pattern: '^[a-z]{2}-[A-Z]{2}$' },
    limit: { type: 'integer', minimum: 1, maximum: 100 },
    sort: { enum: ['relevance', 'newest', 'oldest'] },
    includeArchived: { type: 'boolean' },
    range: {
      type: 'object',
      properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string' } },
      required: ['from', 'to'],
      additionalProperties: false,
    },
    tags: { type: 'array', items: { type: 'string', maxLength: 30 }, maxItems: 10 },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['query', 'locale', 'limit', 'sort', 'range', 'tags'],
  additionalProperties: false,
} as const;

const text = JSON.stringify({
  query: 'quarterly revenue by region',
  locale: 'en-GB',
  limit: 20,
  sort: 'newest',
  includeArchived: false,
  range: { from: '2024-01-01T00:00:00Z', to: '2024-03-31T23:59:59Z' },
  tags: ['finance', 'emea', 'q1'],
  labels: { team: 'sales' },
});

const smallSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 100 },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    active: { type: 'boolean' },
  },
  required: ['name', 'age'],
  additionalProperties: false,
} as const;
const smallText = JSON.stringify({ name: 'Ada', age: 36, active: true });

/** ajv 2020 with its defaults and every error collected (patterns on `RegExp`, date-time as ajv-free code would: none). */
function ajvDefaults(): AjvInstance {
  const require = createRequire(import.meta.url);
  const Ajv2020 = (require('ajv/dist/2020') as { default: new (o: Options) => AjvInstance })
    .default;
  return new Ajv2020({ allErrors: true, formats: { 'date-time': true } });
}

async function against(title: string, schema: Record<string, unknown>, json: string) {
  const tool = new ToolDefinition({
    name: 'search',
    description: 'Search.',
    params: schema,
    handler: () => ToolResult.ok(null),
  });
  const params = tool.params!;
  const compiled = compileJsonSchema(schema);
  if (!compiled.ok) throw new Error('the bench schema does not compile');
  const validator = compiled.validate;
  const defaults = ajvDefaults().compile(schema);
  const expected = JSON.parse(json) as unknown;
  const check = (value: unknown) => {
    if (JSON.stringify(value) !== json) throw new Error('wrong answer');
  };
  // Every contender must accept the payload before it is timed.
  check(params.parse(json, 'standard'));
  if (!validator(expected) || !defaults(expected)) throw new Error('the payload is refused');

  await compare(
    title,
    [
      {
        name: 'ajv alone (same compiled validator)',
        run: () => {
          const value = JSON.parse(json) as unknown;
          if (!validator(value)) throw new Error('refused');
          return value;
        },
      },
      {
        name: 'ajv defaults (RegExp patterns)',
        run: () => {
          const value = JSON.parse(json) as unknown;
          if (!defaults(value)) throw new Error('refused');
          return value;
        },
      },
      {
        name: 'JSON Schema params parse',
        run: () => params.parse(json, 'standard'),
        goal: 1.2,
      },
    ],
    { baseline: 'ajv alone (same compiled validator)', batch: 2_000, rounds: 15 },
  );
}

export default async function (): Promise<void> {
  await against('JSON Schema params, 3 fields, from JSON text', smallSchema, smallText);
  await against(
    'JSON Schema params, 8 fields (nested, array, map, pattern, date-time), from JSON text',
    searchSchema,
    text,
  );
}
