/**
 * affordance's MCP client on affordance's own MCP server: `McpToolsSection`
 * connects (strictly: nothing may be skipped) to an `McpToolServer` serving
 * tools with nested, optional, enum, union and map params — declared as a
 * class-validator params class, a zod schema and a plain JSON Schema — and
 * calls every one of them through the runtime.
 */
import 'reflect-metadata';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { Container } from 'inversify';
import { z } from 'zod';

import { installAffordance, MarkdownSection, Prompt, ToolDefinition, ToolResult } from 'affordance';
import { McpToolServer, McpToolsSection } from 'affordance/mcp';

class Traveller {
  @IsString()
  name!: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  age?: number;
}

class BookTrip {
  @ValidateNested()
  @Type(() => Traveller)
  lead!: Traveller;

  @ValidateNested({ each: true })
  @Type(() => Traveller)
  others!: Traveller[];

  @IsIn(['economy', 'business'])
  cabin!: 'economy' | 'business';

  @IsOptional()
  @IsString()
  notes?: string;
}

/** Every call the server ran, as the handler saw its params. */
const served: string[] = [];
const echo = (name: string) => (params: unknown) => {
  const text = `${name} ${JSON.stringify(params)}`;
  served.push(text);
  return ToolResult.ok(null, text);
};

const tools = [
  new ToolDefinition({
    name: 'book_trip',
    description: 'Book a trip (a params class: nested, optional, enum).',
    params: BookTrip,
    handler: echo('book_trip'),
  }),
  new ToolDefinition({
    name: 'tag_item',
    description: 'Tag an item (zod: union, map, nullable optional).',
    params: z.object({
      id: z.union([z.string(), z.number().int()]),
      labels: z.record(z.string(), z.string()),
      note: z.string().nullable().optional(),
      kind: z.enum(['a', 'b']),
    }),
    handler: echo('tag_item'),
  }),
  new ToolDefinition({
    name: 'plot',
    description: 'Plot points (a JSON Schema: $ref, type list, map of arrays, const).',
    params: {
      type: 'object',
      $defs: {
        point: {
          type: 'object',
          properties: { x: { type: 'number' }, y: { type: 'number' } },
          required: ['x', 'y'],
          additionalProperties: false,
        },
      },
      properties: {
        origin: { $ref: '#/$defs/point' },
        series: {
          type: 'object',
          additionalProperties: { type: 'array', items: { $ref: '#/$defs/point' } },
        },
        label: { type: ['string', 'null'] },
        version: { const: 2 },
      },
      required: ['origin', 'series', 'version'],
    },
    handler: echo('plot'),
  }),
];

const serverPrompt = new Prompt({
  ns: 'test',
  key: 'served',
  sections: [new MarkdownSection({ key: 'served', title: 'Served', template: 'Tools.', tools })],
});

let section: McpToolsSection;

beforeAll(async () => {
  const toolServer = new McpToolServer({
    runtime: installAffordance(new Container()),
    prompt: serverPrompt,
    name: 'served',
    version: '1.0.0',
  });
  section = await McpToolsSection.connect({
    key: 'served',
    unsupportedSchemas: 'error',
    server: {
      transport: () => {
        const [client, serverSide] = InMemoryTransport.createLinkedPair();
        void toolServer.createServer().then((server) => server.connect(serverSide));
        return client;
      },
    },
  });
});

afterAll(async () => {
  await section.close();
});

describe("McpToolsSection on affordance's own MCP server", () => {
  it('offers every served tool and calls each with the params the server validates', async () => {
    expect(section.skipped).toEqual([]);
    expect(section.tools.map((tool) => tool.name)).toEqual(['book_trip', 'tag_item', 'plot']);
    const runtime = installAffordance(new Container());
    const prompt = new Prompt({ ns: 'test', key: 'client', sections: [section] });
    const calls: [string, Record<string, unknown>][] = [
      [
        'book_trip',
        { lead: { name: 'Ada', age: 36 }, others: [{ name: 'Charles' }], cabin: 'business' },
      ],
      ['book_trip', { lead: { name: 'Ada' }, others: [], cabin: 'economy', notes: 'window' }],
      ['tag_item', { id: 7, labels: { colour: 'red' }, kind: 'a' }],
      ['tag_item', { id: 'x-1', labels: {}, note: null, kind: 'b' }],
      [
        'plot',
        { origin: { x: 0, y: 0 }, series: { s: [{ x: 1, y: 2 }] }, label: null, version: 2 },
      ],
    ];
    const messages: string[] = [];
    for (const [name, args] of calls) {
      const outcome = await runtime.callTool(prompt, { name, arguments: args });
      expect(outcome.result.success).toBe(true);
      messages.push(outcome.message);
    }
    expect(messages).toEqual(served);
    expect(served.map((text) => JSON.parse(text.slice(text.indexOf(' ') + 1)) as unknown)).toEqual(
      calls.map(([, args]) => args),
    );
  });

  it('refuses, before the server sees it, a call the served schema does not accept', async () => {
    const runtime = installAffordance(new Container());
    const prompt = new Prompt({ ns: 'test', key: 'client', sections: [section] });
    const before = served.length;
    const bad: [string, Record<string, unknown>, string][] = [
      ['book_trip', { lead: {}, others: [], cabin: 'first' }, 'lead.name: is required'],
      ['tag_item', { id: true, labels: { a: 1 }, kind: 'a' }, 'labels.a: must be string'],
      ['plot', { origin: { x: 0 }, series: {}, version: 3 }, 'origin.y: is required'],
    ];
    for (const [name, args, message] of bad) {
      const outcome = await runtime.callTool(prompt, { name, arguments: args });
      expect(outcome.result.success).toBe(false);
      expect(outcome.message).toContain(message);
    }
    expect(served).toHaveLength(before);
  });
});
