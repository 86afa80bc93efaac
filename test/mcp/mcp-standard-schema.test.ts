/**
 * A tool whose params are a zod 4 schema, served over Streamable HTTP and
 * reached with the SDK's own `Client`: its inputSchema is the library's JSON
 * Schema, and calls are validated by the library.
 */
import type { Server } from 'node:http';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Container } from 'inversify';
import { z } from 'zod';

import {
  installAffordance,
  MarkdownSection,
  Prompt,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { McpHttpHandler, McpToolServer } from 'affordance/mcp';

import { listen } from './mcp-desk.js';

const noteTool = new ToolDefinition({
  name: 'add_note',
  description: 'Add a note.',
  params: z.object({
    text: z.string().min(2).describe('The note'),
    pinned: z.boolean().optional(),
  }),
  handler: (params) =>
    ToolResult.ok(null, `Noted: ${params.text}${params.pinned ? ' (pinned)' : ''}.`),
});

const prompt = new Prompt({
  ns: 'test',
  key: 'notes',
  sections: [
    new MarkdownSection({ key: 'notes', title: 'Notes', template: 'Notes.', tools: [noteTool] }),
  ],
});

let server: Server;
let handler: McpHttpHandler;
let client: Client;
const sessions: Session[] = [];

beforeAll(async () => {
  const runtime = installAffordance(new Container());
  handler = new McpHttpHandler(
    new McpToolServer({
      runtime,
      prompt,
      name: 'notes',
      version: '1.0.0',
      session: () => {
        const session = new Session();
        sessions.push(session);
        return session;
      },
    }),
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

const text = (result: Awaited<ReturnType<Client['callTool']>>): string =>
  (result.content as { type: string; text: string }[]).map((part) => part.text).join('');

describe('McpToolServer with a Standard Schema params tool', () => {
  it("lists the schema library's JSON Schema as the tool's inputSchema", async () => {
    const { tools } = await client.listTools();
    expect(tools[0]?.inputSchema).toEqual({
      type: 'object',
      properties: {
        text: { type: 'string', minLength: 2, description: 'The note' },
        pinned: { type: 'boolean' },
      },
      required: ['text'],
    });
  });

  it('runs a valid call and returns a rejected one with its issues, both recorded', async () => {
    const ok = await client.callTool({ name: 'add_note', arguments: { text: 'hi', pinned: true } });
    const bad = await client.callTool({
      name: 'add_note',
      arguments: { text: 'x', pinned: 'yes' },
    });

    expect(ok.isError).toBe(false);
    expect(text(ok)).toBe('Noted: hi (pinned).');
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^Tool validation failed: text: .*; pinned: /);
    const events = sessions.flatMap((session) => session.slice(ToolInvoked).all());
    expect(events.map((event) => [event.outcome, event.params])).toEqual([
      ['success', { text: 'hi', pinned: true }],
      ['failure', undefined],
    ]);
  });
});
