import { z } from 'zod';

import {
  ConfigurationError,
  describePrompt,
  MarkdownSection,
  Prompt,
  Session,
  type StandardSchemaV1,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
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

const ticketSchema = z.object({
  title: z.string().min(3).describe('Short summary'),
  priority: z.number().int().min(1).max(5).optional(),
  tags: z.array(z.string()).max(3),
  owner: z.object({ email: z.email() }),
});

function ticketTool(fail?: string): ToolDefinition {
  return new ToolDefinition({
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

/** A scripted turn's `expect`: the last tool message contains `fragment`. */
function toolTextContains(fragment: string): (request: { messages: readonly unknown[] }) => void {
  return (request) => {
    expect(toolText(request)).toContain(fragment);
  };
}

describe('ToolDefinition with a Standard Schema (zod 4) params', () => {
  it('runs a valid call with the validated plain value, recorded in ToolInvoked', async () => {
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
        {
          text: 'Done.',
          expect: toolTextContains('Filed \\"Printer jam\\" (priority 3).'),
        },
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
  });

  it('returns every issue with its path to the model, and a failed call leaves no state', async () => {
    const session = new Session();
    const agent = createTestRuntime({
      script: [
        {
          toolCalls: [
            {
              name: 'file_ticket',
              arguments: { title: 'x', tags: ['a', 7], owner: { email: 'nope' } },
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
            expect(text).toContain('tags[1]: ');
            expect(text).toContain('owner.email: ');
          },
        },
        {
          text: 'Gave up.',
          expect: toolTextContains('the tracker is down'),
        },
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

  it('awaits a schema that validates asynchronously', async () => {
    const slow = z.object({
      title: z.string().refine((title) => Promise.resolve(title !== 'taken'), 'is already taken'),
    });
    const tool = new ToolDefinition({
      name: 'reserve',
      description: 'Reserve a title.',
      params: slow,
      handler: (params) => ToolResult.ok(null, `Reserved ${params.title}.`),
    });
    const agent = createTestRuntime({
      script: [
        { toolCalls: [{ name: 'reserve', arguments: { title: 'taken' } }] },
        {
          toolCalls: [{ name: 'reserve', arguments: { title: 'free' } }],
          expect: toolTextContains('title: is already taken'),
        },
        {
          text: 'ok',
          expect: toolTextContains('Reserved free.'),
        },
      ],
    });
    expect((await agent.evaluate(desk(tool))).status).toBe('completed');
  });

  it('types the handler params from the schema output', () => {
    new ToolDefinition({
      name: 'typed',
      description: 'Typed params.',
      params: ticketSchema,
      handler: (params) => {
        const title: string = params.title;
        const priority: number | undefined = params.priority;
        // @ts-expect-error `tags` is a string array, not a string
        const wrong: string = params.tags;
        return ToolResult.ok(null, `${title} ${priority} ${wrong}`);
      },
    });
  });

  it('writes the standard and openai-strict JSON Schema, reporting what strict mode drops', () => {
    const standard = toJsonSchema(ticketSchema, 'standard');
    expect(standard.schema).toMatchObject({
      type: 'object',
      required: ['title', 'tags', 'owner'],
      properties: { title: { type: 'string', minLength: 3, description: 'Short summary' } },
    });
    expect(standard.schema['$schema']).toBeUndefined();
    expect(standard.strictCompatible).toBe(true);

    const strict = toJsonSchema(ticketSchema, 'openai-strict');
    expect(strict.schema).toMatchObject({
      required: ['title', 'priority', 'tags', 'owner'],
      additionalProperties: false,
      properties: {
        title: { type: 'string', description: 'Short summary' },
        priority: { type: ['integer', 'null'], minimum: 1, maximum: 5 },
        owner: { type: 'object', required: ['email'], additionalProperties: false },
      },
    });
    expect((strict.schema['properties'] as Record<string, object>)['title']).not.toHaveProperty(
      'minLength',
    );
    expect(strict.unexpressed).toEqual([
      {
        path: 'title',
        constraint: 'minLength',
        reason: 'enforced at runtime only: OpenAI strict mode does not support minLength',
      },
    ]);
    expect(strict.strictCompatible).toBe(true);
  });

  it('lists an open object as a strict blocker', () => {
    const open = z.object({ labels: z.record(z.string(), z.string()) });
    const result = toJsonSchema(open, 'openai-strict');
    expect(result.strictCompatible).toBe(false);
    expect(result.strictBlockers).toEqual([
      expect.objectContaining({ path: 'labels', constraint: 'additionalProperties' }),
    ]);
  });

  it('reads the null a strict model sends for an absent optional field as absent', async () => {
    const tool = ticketTool();
    const parsed = await tool.params!.parse(
      '{"title":"Jam","priority":null,"tags":[],"owner":{"email":"a@b.test"}}',
      'openai-strict',
    );
    expect(parsed).toEqual({ title: 'Jam', tags: [], owner: { email: 'a@b.test' } });
    await expect(
      Promise.resolve().then(() =>
        tool.params!.parse('{"title":"Jam","priority":null}', 'standard'),
      ),
    ).rejects.toThrow(/priority: /);
  });

  it('names the tool and the fix for a schema without JSON Schema support and no converter', () => {
    const bare: StandardSchemaV1<unknown, { a: string }> = {
      '~standard': {
        version: 1,
        vendor: 'acme',
        validate: (value) => ({ value: value as { a: string } }),
      },
    };
    const build = () =>
      new ToolDefinition({
        name: 'bare',
        description: 'Bare.',
        params: bare,
        handler: () => ToolResult.ok(null),
      });
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(/Tool 'bare'.*Standard JSON Schema.*Fix: Pass `paramsJsonSchema`/);

    const converted = new ToolDefinition({
      name: 'bare',
      description: 'Bare.',
      params: bare,
      paramsJsonSchema: () => ({
        type: 'object',
        properties: { a: { type: 'string' } },
        required: ['a'],
      }),
      handler: () => ToolResult.ok(null),
    });
    expect(converted.params?.jsonSchema('openai-strict').schema).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    });
  });

  it("hashes the tool contract from the schema's JSON Schema, so a changed schema invalidates overrides", () => {
    const hashOf = (params: StandardSchemaV1<unknown, { a: unknown }>) => {
      const tool = new ToolDefinition({
        name: 'hashed',
        description: 'Hashed.',
        params,
        handler: () => ToolResult.ok(null),
      });
      return describePrompt(desk(tool)).tools[0]?.contractHash;
    };
    const first = hashOf(z.object({ a: z.string() }));
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOf(z.object({ a: z.string() }))).toBe(first);
    expect(hashOf(z.object({ a: z.number() }))).not.toBe(first);
  });
});
