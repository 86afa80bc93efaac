import {
  ConfigurationError,
  describePrompt,
  type JsonSchemaObject,
  jsonSchemaProblems,
  MarkdownSection,
  Prompt,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
  ToolValidationError,
} from 'affordance';
import { toJsonSchema } from 'affordance/provider';
import { createTestRuntime } from 'affordance/testing';

/** A STATE slice `file_ticket` fills through `context.session`. */
class Ticket {
  constructor(
    readonly title: string,
    readonly tags: readonly string[],
  ) {}
}

interface TicketParams {
  title: string;
  priority?: number;
  tags: string[];
  owner: { email: string };
}

const ticketSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 3, description: 'Short summary' },
    priority: { type: 'integer', minimum: 1, maximum: 5 },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
    owner: {
      type: 'object',
      properties: { email: { type: 'string', format: 'email' } },
      required: ['email'],
      additionalProperties: false,
    },
  },
  required: ['title', 'tags', 'owner'],
  additionalProperties: false,
} as const;

function ticketTool(fail?: string): ToolDefinition<TicketParams> {
  return new ToolDefinition<TicketParams>({
    name: 'file_ticket',
    description: 'File a support ticket.',
    params: ticketSchema,
    handler: (params, context) => {
      context.session.dispatch(new Ticket(params.title, params.tags));
      if (params.title === fail) throw new Error('the tracker is down');
      return ToolResult.ok(null, `Filed "${params.title}" (priority ${params.priority ?? 3}).`);
    },
  });
}

function desk(tool: ToolDefinition): Prompt {
  const section = new MarkdownSection({
    key: 'desk',
    title: 'Desk',
    template: 'File tickets.',
    tools: [tool],
  });
  return new Prompt({ ns: 'test', key: 'desk', sections: [section] });
}

function toolText(request: { messages: readonly unknown[] }): string {
  return JSON.stringify(request.messages.at(-1));
}

function toolTextContains(fragment: string): (request: { messages: readonly unknown[] }) => void {
  return (request) => {
    expect(toolText(request)).toContain(fragment);
  };
}

/** A tool with `schema` as its params, or the error building it threw. */
function build(schema: JsonSchemaObject, name = 'remote'): ToolDefinition {
  return new ToolDefinition({
    name,
    description: 'A tool.',
    params: schema,
    handler: () => ToolResult.ok(null),
  });
}

describe('ToolDefinition with plain JSON Schema params', () => {
  it('runs a valid call with the decoded plain value, recorded in ToolInvoked', async () => {
    const session = new Session();
    const agent = createTestRuntime({
      script: [
        {
          toolCalls: [
            {
              name: 'file_ticket',
              arguments: { title: 'Printer jam', tags: ['hw'], owner: { email: 'a@b.test' } },
            },
          ],
        },
        { text: 'Done.', expect: toolTextContains('Filed \\"Printer jam\\" (priority 3).') },
      ],
    });
    const response = await agent.evaluate(desk(ticketTool()), { session });

    expect(response.status).toBe('completed');
    expect(session.slice(Ticket).all()).toEqual([new Ticket('Printer jam', ['hw'])]);
    const [event] = session.slice(ToolInvoked).all();
    expect(event?.outcome).toBe('success');
    expect(event?.params).toEqual({
      title: 'Printer jam',
      tags: ['hw'],
      owner: { email: 'a@b.test' },
    });
    expect(ticketTool().params?.kind).toBe('json-schema');
  });

  it('returns every issue with its path to the model, and a failed call leaves no state', async () => {
    const session = new Session();
    const agent = createTestRuntime({
      script: [
        {
          toolCalls: [
            {
              name: 'file_ticket',
              arguments: { title: 'x', tags: ['a', 7], owner: { email: 'nope', extra: 1 } },
            },
          ],
        },
        {
          toolCalls: [
            {
              name: 'file_ticket',
              arguments: { title: 'Down', tags: [], owner: { email: 'a@b.test' } },
            },
          ],
          expect: (request) => {
            const text = toolText(request);
            expect(text).toContain('Tool validation failed: title: ');
            expect(text).toContain('tags[1]: must be string');
            expect(text).toContain('owner.email: must match format');
            expect(text).toContain('owner.extra: unknown field');
          },
        },
        { text: 'Gave up.', expect: toolTextContains('the tracker is down') },
      ],
    });
    await agent.evaluate(desk(ticketTool('Down')), { session });

    expect(session.slice(Ticket).all()).toEqual([]);
    const outcomes = session
      .slice(ToolInvoked)
      .all()
      .map((event) => event.outcome);
    expect(outcomes).toHaveLength(2);
    expect(outcomes).not.toContain('success');
  });

  it('lists a missing required field at its own path, and caps a long list of issues', () => {
    const params = ticketTool().params!;
    expect(() => params.parse('{"tags":[],"owner":{}}', 'standard')).toThrow(
      /title: is required.*owner\.email: is required/,
    );
    const many = { title: 'Many', tags: Array.from({ length: 40 }, (_, i) => i), owner: {} };
    let thrown: unknown;
    try {
      void params.parse(many, 'standard');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolValidationError);
    const error = thrown as ToolValidationError;
    expect(error.issues.length).toBeGreaterThan(40);
    expect(error.message).toMatch(/; and \d+ more$/);
  });

  it('refuses reserved keys and arguments nested past the bound, before the validator runs', () => {
    const open = build({ type: 'object', additionalProperties: {} }).params!;
    expect(() => open.parse('{"a":{"__proto__":{"polluted":true}}}', 'standard')).toThrow(
      /a\.__proto__: is a reserved name/,
    );
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    // A closed schema (not screened first) refuses the key through the validator.
    const closed = ticketTool().params!;
    expect(() =>
      closed.parse(
        '{"title":"Jam","tags":[],"owner":{"email":"a@b.test","__proto__":{}}}',
        'standard',
      ),
    ).toThrow(/owner\.__proto__: unknown field/);
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(() => open.parse({ deep }, 'standard')).toThrow(/nests deeper than 64 levels/);
  });

  it('types the handler params as unknown, or as the type parameter given', () => {
    new ToolDefinition({
      name: 'untyped',
      description: 'Untyped params.',
      params: { type: 'object', properties: { a: { type: 'string' } } },
      handler: (params) => {
        const read = (typed: { a: string }) => typed.a;
        // @ts-expect-error params are unknown without a type parameter
        return ToolResult.ok(null, read(params));
      },
    });
    new ToolDefinition<{ a: string }>({
      name: 'typed',
      description: 'Typed params.',
      params: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
      handler: (params) => ToolResult.ok(null, params.a),
    });
  });

  it('writes the standard and openai-strict JSON Schema, reporting what strict mode drops', () => {
    const standard = toJsonSchema(ticketSchema, 'standard');
    expect(standard.schema).toEqual(
      Object.fromEntries(Object.entries(ticketSchema).filter(([key]) => key !== '$schema')),
    );
    expect(standard.strictCompatible).toBe(true);

    const strict = ticketTool().params!.jsonSchema('openai-strict');
    expect(strict.schema).toMatchObject({
      required: ['title', 'priority', 'tags', 'owner'],
      additionalProperties: false,
      properties: {
        title: { type: 'string', description: 'Short summary' },
        priority: { type: ['integer', 'null'], minimum: 1, maximum: 5 },
        owner: { type: 'object', required: ['email'], additionalProperties: false },
      },
    });
    expect(strict.unexpressed).toEqual([
      {
        path: 'title',
        constraint: 'minLength',
        reason: 'enforced at runtime only: OpenAI strict mode does not support minLength',
      },
    ]);
    expect(strict.strictCompatible).toBe(true);
  });

  it('lists a map (open object) and oneOf as strict blockers', () => {
    const result = toJsonSchema(
      {
        type: 'object',
        properties: {
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        },
      },
      'openai-strict',
    );
    expect(result.strictCompatible).toBe(false);
    expect(result.strictBlockers.map((gap) => [gap.path, gap.constraint])).toEqual([
      ['labels', 'additionalProperties'],
      ['id', 'oneOf'],
    ]);
  });

  it('reads the null a strict model sends for an absent optional field as absent', async () => {
    const tool = ticketTool();
    const parsed = await tool.params!.parse(
      '{"title":"Jam","priority":null,"tags":[],"owner":{"email":"a@b.test"}}',
      'openai-strict',
    );
    expect(parsed).toEqual({ title: 'Jam', tags: [], owner: { email: 'a@b.test' } });
    expect(() =>
      tool.params!.parse(
        '{"title":"Jam","priority":null,"tags":[],"owner":{"email":"a@b.test"}}',
        'standard',
      ),
    ).toThrow(/priority: must be integer/);
  });

  it('follows local $refs, unions with null, type lists, const, enum and maps', () => {
    const params = build({
      type: 'object',
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      properties: {
        at: { $ref: '#/$defs/point' },
        path: { type: 'array', items: { $ref: '#/$defs/point' } },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        flag: { type: ['boolean', 'string'] },
        kind: { const: 'fixed' },
        mode: { enum: ['a', 'b', null] },
        env: { type: 'object', additionalProperties: { type: 'string' } },
      },
    }).params!;
    const value = {
      at: { x: 1 },
      path: [{ x: 2 }],
      note: null,
      flag: 'yes',
      kind: 'fixed',
      mode: null,
      env: { HOME: '/root' },
    };
    expect(params.parse(value, 'standard')).toEqual(value);
    expect(() =>
      params.parse(
        { at: {}, path: [{ x: 'no' }], flag: 3, kind: 'other', mode: 'c', env: { A: 1 } },
        'standard',
      ),
    ).toThrow(
      /at\.x: is required.*path\[0\]\.x: must be number.*flag: must be boolean,string.*kind: must be equal to constant.*mode: must be one of "a", "b", null.*env\.A: must be string/,
    );
  });

  it('follows a recursive $ref to the root of each schema, and ignores x- extension keywords', () => {
    const tree = build({
      type: 'object',
      'x-origin': 'openapi',
      properties: { name: { type: 'string' }, child: { anyOf: [{ $ref: '#' }, { type: 'null' }] } },
      required: ['name'],
    }).params!;
    const list = build({
      type: 'object',
      properties: { n: { type: 'integer' }, next: { $ref: '#' } },
      required: ['n'],
    }).params!;
    const value = { name: 'a', child: { name: 'b', child: null } };
    expect(tree.parse(value, 'standard')).toEqual(value);
    expect(() => tree.parse({ name: 'a', child: { child: null } }, 'standard')).toThrow(
      /child\.name: is required/,
    );
    expect(list.parse({ n: 1, next: { n: 2 } }, 'standard')).toEqual({ n: 1, next: { n: 2 } });
    expect(() => list.parse({ n: 1, next: { name: 'x' } }, 'standard')).toThrow(
      /next\.n: is required/,
    );
  });

  it('checks uniqueItems of 100,000 objects without comparing them pairwise', () => {
    const params = build({
      type: 'object',
      properties: { rows: { type: 'array', items: { type: 'object' }, uniqueItems: true } },
    }).params!;
    const rows = Array.from({ length: 100_000 }, (_, i) => ({ i, tag: 'x' }));
    // Pairwise (ajv's own uniqueItems for objects) this is 5e9 deep comparisons.
    const parsed = params.parse(JSON.stringify({ rows }), 'standard') as { rows: unknown[] };
    expect(parsed.rows).toHaveLength(100_000);
    rows.push({ tag: 'x', i: 7 });
    expect(() => params.parse(JSON.stringify({ rows }), 'standard')).toThrow(
      /rows: must not hold equal items/,
    );
    expect(params.jsonSchema('standard').schema).toMatchObject({
      properties: { rows: { uniqueItems: true } },
    });
  });

  it('runs a pattern on the linear-time engine: a hostile argument answers at once', () => {
    const params = build({
      type: 'object',
      properties: { word: { type: 'string', pattern: '^(a+)+$' } },
    }).params!;
    // On a backtracking engine this argument takes longer than the age of the universe.
    expect(() => params.parse({ word: `${'a'.repeat(40)}!` }, 'standard')).toThrow(
      /word: must match \/\^\(a\+\)\+\$\//,
    );
    expect(params.parse({ word: 'aaa' }, 'standard')).toEqual({ word: 'aaa' });
  });

  it('refuses a schema it cannot compile, naming the tool and the keyword', () => {
    const cases: [JsonSchemaObject, RegExp][] = [
      [
        { type: 'object', properties: { a: { type: 'string', pattern: '(a)\\1' } } },
        /pattern.*backreference/,
      ],
      [{ type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } }, /\$ref/],
      [
        { type: 'object', properties: { a: { type: 'string', format: 'color' } } },
        /format \("color" is not supported/,
      ],
      [{ type: 'object', properties: { a: { type: 'string', frobnicate: true } } }, /frobnicate/],
      [{ type: 'object', properties: { constructor: { type: 'string' } } }, /reserved name/],
      [{ type: 'string' }, /does not describe an object/],
      [{ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' }, /\$schema/],
    ];
    for (const [schema, message] of cases) {
      expect(() => build(schema)).toThrow(ConfigurationError);
      expect(() => build(schema)).toThrow(/Tool 'remote'/);
      expect(() => build(schema)).toThrow(message);
      expect(jsonSchemaProblems(schema).length).toBeGreaterThan(0);
    }
    let deep: JsonSchemaObject = { type: 'string' };
    for (let i = 0; i < 70; i++) deep = { type: 'object', properties: { a: deep } };
    expect(() => build(deep)).toThrow(/Nests schemas more than 64 levels deep/);
    expect(jsonSchemaProblems(ticketSchema)).toEqual([]);
  });

  it('compiles a schema object once, however many tools use it', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const first = build(schema, 'one').params?.schema;
    expect(build(schema, 'two').params?.schema).toBe(first);
  });

  it('hashes the tool contract from the JSON Schema, so a changed schema invalidates overrides', () => {
    const hashOf = (type: string) =>
      describePrompt(desk(build({ type: 'object', properties: { a: { type } } }, 'hashed')))
        .tools[0]?.contractHash;
    const first = hashOf('string');
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOf('string')).toBe(first);
    expect(hashOf('number')).not.toBe(first);
  });
});
