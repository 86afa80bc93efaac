/**
 * The schemas affordance's own MCP server lists, as the SDK's `Client` reads
 * them over Streamable HTTP: nested params classes (a `type` beside every
 * `$ref`), and `outputSchema` with `structuredContent` for tools with a
 * declared result class (the SDK client checks the content against it).
 */
import type { Server } from 'node:http';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Container } from 'inversify';

import { installAffordance, MarkdownSection, Prompt, ToolDefinition, ToolResult } from 'affordance';
import { McpHttpHandler, McpToolServer } from 'affordance/mcp';

import { listen } from './mcp-desk.js';

class Place {
  @IsString() city!: string;
  @IsOptional() @ValidateNested() @Type(() => Place) via?: Place;
}

class TripParams {
  @ValidateNested() @Type(() => Place) from!: Place;
  @IsOptional() @ValidateNested() @Type(() => Place) to?: Place;
  @IsArray() @ValidateNested({ each: true }) @Type(() => Place) stops!: Place[];
  @IsIn(['train', 'bus']) mode!: string;
}

class Fare {
  @IsString() currency!: string;
  @IsInt() cents!: number;
}

/** A result class of plain data, without validators: nothing to promise. */
class Receipt {
  id = 'r-0';
}

const tools = [
  new ToolDefinition({
    name: 'plan_trip',
    description: 'Plan a trip.',
    params: TripParams,
    result: Fare,
    handler: (params) =>
      ToolResult.ok(
        Object.assign(new Fare(), { currency: 'EUR', cents: 100 * (params.stops.length + 1) }),
        `A ${params.mode} from ${params.from.city}.`,
      ),
  }),
  new ToolDefinition({
    name: 'list_fares',
    description: 'List the fares.',
    result: [Fare],
    handler: () =>
      ToolResult.ok(
        [1, 2].map((cents) => Object.assign(new Fare(), { currency: 'EUR', cents })),
        'Two fares.',
      ),
  }),
  new ToolDefinition({
    name: 'broken_fare',
    description: 'Return a fare that breaks its class.',
    result: Fare,
    handler: () => ToolResult.ok(Object.assign(new Fare(), { currency: 'EUR', cents: 1.5 }), 'Hm.'),
  }),
  new ToolDefinition({
    name: 'issue_receipt',
    description: 'Issue a receipt.',
    result: Receipt,
    handler: () => ToolResult.ok(Object.assign(new Receipt(), { id: 'r-1' }), 'Receipt r-1.'),
  }),
];

const prompt = new Prompt({
  ns: 'test',
  key: 'trips',
  sections: [new MarkdownSection({ key: 'trips', title: 'Trips', template: 'Trips.', tools })],
});

let server: Server;
let handler: McpHttpHandler;
let client: Client;

beforeAll(async () => {
  handler = new McpHttpHandler(
    new McpToolServer({ runtime: installAffordance(new Container()), prompt }),
  );
  const listening = await listen(handler);
  server = listening.server;
  client = new Client({ name: 'test-host', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(listening.url));
});

afterAll(async () => {
  await client.close();
  await handler.close();
  await new Promise((resolve) => server.close(resolve));
});

/** Every object in `schema` that has a `$ref`. */
function refNodes(schema: unknown): Record<string, unknown>[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const own = '$ref' in schema ? [schema as Record<string, unknown>] : [];
  return [...own, ...Object.values(schema).flatMap(refNodes)];
}

const fareSchema = {
  type: 'object',
  properties: { currency: { type: 'string' }, cents: { type: 'integer' } },
  required: ['currency', 'cents'],
  additionalProperties: false,
};

const listed = async (name: string) =>
  (await client.listTools()).tools.find((tool) => tool.name === name);

describe("McpToolServer's schemas", () => {
  it('gives every $ref of a nested params class the type of its target', async () => {
    const schema = (await listed('plan_trip'))?.inputSchema;
    const refs = refNodes(schema);

    expect(refs.length).toBe(4);
    expect(refs.every((node) => node['type'] === 'object')).toBe(true);
    expect((schema?.properties as Record<string, unknown>)['from']).toEqual({
      $ref: '#/$defs/Place',
      type: 'object',
    });
    const validate = new Ajv2020({ strict: false }).compile(schema ?? {});
    const trip = { from: { city: 'Oslo', via: { city: 'Bergen' } }, stops: [], mode: 'bus' };
    expect(validate(trip)).toBe(true);
    expect(validate({ ...trip, from: 'Oslo' })).toBe(false);
  });

  it('declares the result class as outputSchema and returns the value as structuredContent', async () => {
    const tool = await listed('plan_trip');
    const result = await client.callTool({
      name: 'plan_trip',
      arguments: { from: { city: 'Oslo' }, stops: [{ city: 'Gol' }], mode: 'train' },
    });

    expect(tool?.outputSchema).toEqual(fareSchema);
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({ currency: 'EUR', cents: 200 });
    // The text stays what a model would read: the message and the value as JSON (the fallback MCP advises).
    expect(result.content).toEqual([
      { type: 'text', text: 'A train from Oslo.\n\n{"currency":"EUR","cents":200}' },
    ]);
  });

  it('wraps a list result in an object under items', async () => {
    const tool = await listed('list_fares');
    const result = await client.callTool({ name: 'list_fares', arguments: {} });

    expect(tool?.outputSchema).toEqual({
      type: 'object',
      properties: { items: { type: 'array', items: fareSchema } },
      required: ['items'],
      additionalProperties: false,
    });
    expect(result.structuredContent).toEqual({
      items: [
        { currency: 'EUR', cents: 1 },
        { currency: 'EUR', cents: 2 },
      ],
    });
  });

  it('answers a value that breaks its declared result class as an error naming the field', async () => {
    const result = await client.callTool({ name: 'broken_fare', arguments: {} });
    const text = (result.content as { text: string }[]).map((part) => part.text).join('\n');

    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(text).toMatch(/declared result Fare: .*cents/);
  });

  it('declares no outputSchema for a result class without validators', async () => {
    const tool = await listed('issue_receipt');
    const result = await client.callTool({ name: 'issue_receipt', arguments: {} });

    expect(tool?.outputSchema).toBeUndefined();
    expect(result.structuredContent).toBeUndefined();
    expect(result.isError).toBe(false);
  });
});
