import { z } from 'zod';

import { type StandardSchemaV1, ToolDefinition, ToolResult, ToolValidationError } from 'affordance';

function paramsOf<T>(schema: StandardSchemaV1<unknown, T>) {
  const tool = new ToolDefinition({
    name: 'probe',
    description: 'Probe.',
    params: schema,
    paramsJsonSchema: () => ({ type: 'object', properties: {} }),
    handler: () => ToolResult.ok(null),
  });
  if (tool.params === undefined) throw new Error('no params');
  return tool.params;
}

async function issuesOf(schema: StandardSchemaV1, raw: unknown): Promise<ToolValidationError> {
  try {
    await paramsOf(schema).parse(raw, 'standard');
  } catch (error) {
    if (error instanceof ToolValidationError) return error;
    throw error;
  }
  throw new Error('parsed');
}

describe('parsing arguments with a Standard Schema', () => {
  it('writes issue paths as the package does: dotted keys, bracketed indexes, quoted odd keys', async () => {
    const schema = z.object({
      meta: z.object({ 'a b': z.number() }),
      items: z.array(z.object({ name: z.string() })),
    });
    const error = await issuesOf(schema, {
      meta: { 'a b': 'x' },
      items: [{ name: 'ok' }, { name: 1 }],
    });
    expect(error.issues.map((issue) => issue.path)).toEqual(['meta["a b"]', 'items[1].name']);
    expect(error.message).toMatch(/^meta\["a b"\]: .*; items\[1\]\.name: /);
  });

  it('lists every issue in the issues and caps the message as for a params class', async () => {
    const schema = z.object({ values: z.array(z.string()) });
    const error = await issuesOf(schema, { values: Array.from({ length: 25 }, (_, i) => i) });
    expect(error.issues).toHaveLength(25);
    expect(error.message).toMatch(new RegExp(`; and ${25 - 20} more$`));
  });

  it('reads path segments given as { key } objects', async () => {
    const schema: StandardSchemaV1 = {
      '~standard': {
        version: 1,
        vendor: 'hand',
        validate: () => ({ issues: [{ message: 'is odd', path: [{ key: 'rows' }, { key: 2 }] }] }),
      },
    };
    expect((await issuesOf(schema, {})).message).toBe('rows[2]: is odd');
  });

  it('refuses text that is not JSON, and a value that is not an object, without calling the schema', async () => {
    let called = 0;
    const schema: StandardSchemaV1 = {
      '~standard': { version: 1, vendor: 'hand', validate: (value) => (called++, { value }) },
    };
    expect((await issuesOf(schema, '{oops')).message).toMatch(/^Arguments are not valid JSON: /);
    expect((await issuesOf(schema, '[1]')).message).toBe(
      'Arguments must be a JSON object; got an array.',
    );
    expect(called).toBe(0);
    expect(paramsOf(schema).parse('', 'standard')).toEqual({});
  });

  it('turns a validator that throws or rejects into a ToolValidationError', async () => {
    const throwing: StandardSchemaV1 = {
      '~standard': {
        version: 1,
        vendor: 'hand',
        validate: () => {
          throw new Error('validator bug');
        },
      },
    };
    const rejecting: StandardSchemaV1 = {
      '~standard': {
        version: 1,
        vendor: 'hand',
        validate: () => Promise.reject(new Error('lookup down')),
      },
    };
    expect((await issuesOf(throwing, {})).message).toBe(
      'Arguments could not be validated: validator bug',
    );
    expect((await issuesOf(rejecting, {})).message).toBe(
      'Arguments could not be validated: lookup down',
    );
  });

  it('answers at once for a schema that validates synchronously', () => {
    const parsed = paramsOf(z.object({ n: z.number() })).parse('{"n":1}', 'standard');
    expect(parsed).toEqual({ n: 1 });
  });
});
