import { z } from 'zod';

import { ConfigurationError, ToolDefinition, ToolResult } from 'affordance';
import { toJsonSchema } from 'affordance/provider';

type Schema = Record<string, unknown>;
const properties = (schema: Schema): Record<string, Schema> =>
  schema['properties'] as Record<string, Schema>;

describe('toJsonSchema of a Standard Schema', () => {
  it('makes every optional property nullable in openai-strict, whatever its shape', () => {
    const schema = z.object({
      kind: z.enum(['a', 'b']).optional(),
      either: z.union([z.string(), z.number()]).optional(),
      already: z.string().nullable().optional(),
      site: z.url(),
    });
    const strict = toJsonSchema(schema, 'openai-strict');
    expect(properties(strict.schema)).toEqual({
      kind: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] },
      either: { type: ['string', 'number', 'null'] },
      already: { type: ['string', 'null'] },
      site: { type: 'string' },
    });
    expect(strict.schema['required']).toEqual(['kind', 'either', 'already', 'site']);
    expect(strict.unexpressed).toEqual([
      expect.objectContaining({
        path: 'site',
        constraint: 'format',
        reason: expect.stringContaining('"uri"') as unknown,
      }),
    ]);
    expect(strict.strictCompatible).toBe(true);
  });

  it('keeps a recursive schema by reference and closes it', () => {
    const Node = z.object({
      name: z.string(),
      get children(): z.ZodOptional<z.ZodArray<typeof Node>> {
        return z.array(Node).optional();
      },
    });
    const strict = toJsonSchema(Node, 'openai-strict');
    expect(properties(strict.schema)['children']).toEqual({
      type: ['array', 'null'],
      items: { $ref: '#' },
    });
  });

  it('lists what strict mode cannot carry as blockers, the same in both profiles', () => {
    const schema = z.object({
      shape: z.discriminatedUnion('t', [
        z.object({ t: z.literal('a') }),
        z.object({ t: z.literal('b') }),
      ]),
    });
    for (const profile of ['standard', 'openai-strict'] as const) {
      const result = toJsonSchema(schema, profile);
      expect(result.strictCompatible).toBe(false);
      expect(result.strictBlockers).toEqual([
        { path: 'shape', constraint: 'oneOf', reason: 'OpenAI strict mode does not support oneOf' },
      ]);
    }
  });

  it('refuses a schema that is not an object, naming the fix', () => {
    expect(() => toJsonSchema(z.string())).toThrow(ConfigurationError);
    expect(() => toJsonSchema(z.string())).toThrow(
      /does not describe an object.*Fix: Use an object schema/,
    );
  });

  it('names the tool when the library cannot write the JSON Schema, on first use', () => {
    const tool = new ToolDefinition({
      name: 'book',
      description: 'Book a slot.',
      params: z.object({ at: z.date() }),
      handler: () => ToolResult.ok(null),
    });
    expect(() => tool.params?.jsonSchema('standard')).toThrow(
      /^Tool 'book': the params schema's JSON Schema could not be written: .*Date.* Fix: /,
    );
  });

  it("uses paramsJsonSchema over the library's own support, dropping $schema", () => {
    const tool = new ToolDefinition({
      name: 'noted',
      description: 'Note.',
      params: z.object({ text: z.string() }),
      paramsJsonSchema: (schema) =>
        z.toJSONSchema(schema as z.ZodObject, { io: 'input', target: 'draft-7' }),
      handler: () => ToolResult.ok(null),
    });
    const standard = tool.params?.jsonSchema('standard').schema;
    expect(standard).toEqual({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
    expect(Object.isFrozen(standard)).toBe(true);
  });
});
