/**
 * One tool, `forecast`, declared with each Standard Schema library affordance
 * is tested with: zod 4 and arktype (both implement Standard JSON Schema),
 * valibot wrapped with `toStandardJsonSchema` from @valibot/to-json-schema,
 * and valibot bare with `paramsJsonSchema` (valibot's `~standard` has no
 * JSON Schema support of its own). Each must send the same JSON Schema, project
 * it onto the strict profile the same way, strip strict nulls, and fail a bad
 * call with every field and its path.
 */
import { toJsonSchema as valibotJsonSchema, toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';

import {
  ConfigurationError,
  MarkdownSection,
  Prompt,
  type StandardSchemaV1,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import { toolSpecOf } from 'affordance/provider';
import { createTestRuntime } from 'affordance/testing';

const zodForecast = z.object({
  city: z.string().min(1),
  days: z.number().int().optional(),
  unit: z.enum(['c', 'f']),
});
const arkForecast = type({ city: 'string>0', 'days?': 'number.integer', unit: "'c'|'f'" });
const valibotForecast = v.object({
  city: v.pipe(v.string(), v.minLength(1)),
  days: v.optional(v.pipe(v.number(), v.integer())),
  unit: v.picklist(['c', 'f']),
});

function forecastTool(
  params: StandardSchemaV1<unknown, { city: string; days?: number | undefined; unit: 'c' | 'f' }>,
  paramsJsonSchema?: (schema: StandardSchemaV1) => unknown,
): ToolDefinition {
  return new ToolDefinition({
    name: 'forecast',
    description: 'Forecast the weather.',
    params,
    paramsJsonSchema,
    handler: (forecast) =>
      ToolResult.ok(null, `${forecast.city}: ${forecast.days ?? 1} day(s) in °${forecast.unit}.`),
  });
}

/** What each library writes for `days` and `unit` (they differ; `city` and the object do not). */
interface Written {
  readonly days: Record<string, unknown>;
  readonly unit: Record<string, unknown>;
}

const safeInteger = { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
const valibotWrites: Written = {
  days: { type: 'integer' },
  unit: { type: 'string', enum: ['c', 'f'] },
};

const tools: [string, () => ToolDefinition, Written][] = [
  [
    'zod',
    () => forecastTool(zodForecast),
    { days: { type: 'integer', ...safeInteger }, unit: { type: 'string', enum: ['c', 'f'] } },
  ],
  [
    'arktype',
    () => forecastTool(arkForecast),
    { days: { type: 'integer' }, unit: { enum: ['c', 'f'] } },
  ],
  [
    'valibot (toStandardJsonSchema)',
    () => forecastTool(toStandardJsonSchema(valibotForecast)),
    valibotWrites,
  ],
  [
    'valibot (paramsJsonSchema)',
    () =>
      forecastTool(valibotForecast, (schema) =>
        valibotJsonSchema(schema as Parameters<typeof valibotJsonSchema>[0]),
      ),
    valibotWrites,
  ],
];

async function call(tool: ToolDefinition, args: Record<string, unknown>): Promise<string> {
  const section = new MarkdownSection({
    key: 'w',
    title: 'Weather',
    template: 'W.',
    tools: [tool],
  });
  const prompt = new Prompt({ ns: 'test', key: 'weather', sections: [section] });
  const { runtime } = createTestRuntime();
  return (await runtime.callTool(prompt, { name: 'forecast', arguments: args })).message;
}

/** The JSON Schema without `$schema`, which each library writes its own way. */
function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

describe.each(tools)('The forecast tool with %s', (_library, build, written) => {
  it("sends the library's JSON Schema, and its strict projection with what that leaves out", () => {
    const tool = build();
    const standard = toolSpecOf(tool, false);
    const strict = toolSpecOf(tool, true);

    expect(withoutDialect(standard.parameters)).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1 },
        days: written.days,
        unit: written.unit,
      },
      required: ['city', 'unit'],
    });
    expect(strict.strict).toBe(true);
    const required = [...(strict.parameters['required'] as string[])].sort();
    expect({ ...withoutDialect(strict.parameters), required }).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: { ...written.days, type: ['integer', 'null'] },
        unit: written.unit,
      },
      required: ['city', 'days', 'unit'],
      additionalProperties: false,
    });
    expect(tool.params?.jsonSchema('openai-strict').unexpressed).toEqual([
      expect.objectContaining({ path: 'city', constraint: 'minLength' }),
    ]);
  });

  it('reads a strict null as absent', async () => {
    const parsed = await build().params?.parse(
      '{"city":"Oslo","days":null,"unit":"c"}',
      'openai-strict',
    );

    expect(parsed).toEqual({ city: 'Oslo', unit: 'c' });
  });

  it('runs a valid call and fails a bad one with every field and its path', async () => {
    const ok = await call(build(), { city: 'Oslo', days: 3, unit: 'c' });
    const bad = await call(build(), { city: '', days: 1.5, unit: 'k' });

    expect(ok).toBe('Oslo: 3 day(s) in °c.');
    expect(bad).toMatch(/^Tool validation failed: /);
    // Every field with its path, in the library's order and words.
    for (const field of ['city', 'days', 'unit'])
      expect(bad).toMatch(new RegExp(`(: |; )${field}: `));
  });
});

it('refuses bare valibot without paramsJsonSchema, naming what to pass', () => {
  expect(() => forecastTool(valibotForecast)).toThrow(ConfigurationError);
  expect(() => forecastTool(valibotForecast)).toThrow(
    /does not implement Standard JSON Schema.*Fix: Pass `paramsJsonSchema`/,
  );
});
