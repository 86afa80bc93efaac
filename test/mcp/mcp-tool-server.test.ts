/**
 * The MCP server as an MCP host reaches it: the SDK's own `Client` over
 * Streamable HTTP to a real HTTP server on 127.0.0.1.
 */
import type { Server } from 'node:http';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ErrorCode,
  McpError,
  type Progress,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Container } from 'inversify';

import {
  type AffordanceRuntime,
  ConfigurationError,
  installAffordance,
  MarkdownSection,
  Prompt,
  SectionVisibilityOverride,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import {
  McpHttpHandler,
  type McpHttpHandlerOptions,
  McpToolServer,
  type McpToolServerOptions,
} from 'affordance/mcp';

import { eventually } from './eventually.js';
import { listen, mcpDesk, Note } from './mcp-desk.js';

interface Served {
  url: URL;
  client: Client;
  handler: McpHttpHandler;
  sessions: Session[];
  log: ReturnType<typeof mcpDesk>['log'];
}

const open: { server: Server; handler: McpHttpHandler; clients: Client[] }[] = [];

async function serve(
  options: Partial<McpToolServerOptions> = {},
  handlerOptions: McpHttpHandlerOptions = {},
): Promise<Served> {
  const runtime: AffordanceRuntime = installAffordance(new Container());
  const { prompt, log } = mcpDesk();
  const sessions: Session[] = [];
  const handler = new McpHttpHandler(
    new McpToolServer({
      runtime,
      prompt,
      name: 'desk',
      version: '1.2.3',
      session: () => {
        const session = new Session();
        sessions.push(session);
        return session;
      },
      ...options,
    }),
    handlerOptions,
  );
  const { url, server } = await listen(handler);
  const client = await connect(url);
  open.push({ server, handler, clients: [client] });
  return { url, client, handler, sessions, log };
}

async function connect(url: URL, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'test-host', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

const text = (result: Awaited<ReturnType<Client['callTool']>>): string =>
  (result.content as { type: string; text: string }[]).map((part) => part.text).join('');

afterEach(async () => {
  for (const { server, handler, clients } of open.splice(0)) {
    for (const client of clients) await client.close();
    await handler.close();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('McpToolServer over Streamable HTTP', () => {
  it("lists the prompt's enabled tools with the schemas an evaluation sends", async () => {
    const { client } = await serve();

    const { tools } = await client.listTools();

    expect(client.getServerVersion()).toMatchObject({ name: 'desk', version: '1.2.3' });
    expect(tools.map((tool) => tool.name)).toEqual([
      'lookup_order',
      'add_note',
      'wait_forever',
      'export_report',
      'unlock_admin',
    ]);
    const lookup = tools[0];
    expect(lookup?.description).toBe('Look an order up.');
    expect(lookup?.annotations?.readOnlyHint).toBe(true);
    expect(lookup?.inputSchema).toMatchObject({
      type: 'object',
      properties: { orderId: { type: 'string', description: 'Order id, e.g. A-1' } },
      required: ['orderId'],
    });
  });

  it('runs a call through the runtime and records it in the connection session', async () => {
    const { client, sessions } = await serve();

    const result = await client.callTool({ name: 'add_note', arguments: { text: 'hello' } });

    expect(result.isError).toBe(false);
    expect(text(result)).toBe('Noted: hello.');
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.slice(Note).all()).toEqual([new Note('hello')]);
    expect(
      sessions[0]
        ?.slice(ToolInvoked)
        .all()
        .map((event) => event.name),
    ).toEqual(['add_note']);
  });

  it.each([
    ['an event stream', false],
    ['plain JSON', true],
  ])(
    'hands each call the HTTP request that carried it, answering with %s',
    async (_answer, jsonResponse) => {
      const callers: unknown[] = [];
      const { url, handler } = await serve(
        {
          callOptions: (call) => {
            callers.push(call.httpRequest?.headers['x-caller']);
            return {};
          },
        },
        { jsonResponse },
      );
      const clients = await Promise.all(
        ['ada', 'bea'].map((name) => connect(url, { 'x-caller': name })),
      );
      open.find((served) => served.handler === handler)?.clients.push(...clients);

      // Concurrent calls from both clients, then one more from the first.
      await Promise.all(
        clients.map((client) => client.callTool({ name: 'add_note', arguments: { text: 'hi' } })),
      );
      await clients[0]?.callTool({ name: 'add_note', arguments: { text: 'again' } });

      expect(callers.slice(0, 2).sort()).toEqual(['ada', 'bea']);
      expect(callers[2]).toBe('ada');
    },
  );

  it('answers invalid arguments and a failing tool with isError results, rolling back', async () => {
    const { client, sessions } = await serve();

    const invalid = await client.callTool({ name: 'lookup_order', arguments: { orderId: 'x' } });
    const failed = await client.callTool({ name: 'add_note', arguments: { text: 'boom' } });

    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toContain('orderId');
    expect(failed.isError).toBe(true);
    expect(text(failed)).toContain('the note store is full');
    expect(sessions[0]?.slice(Note).all()).toEqual([]);
  });

  it('answers a tool it does not list with the JSON-RPC error -32602 of the MCP specification', async () => {
    const { client, sessions } = await serve();

    const unknown = await client.callTool({ name: 'drop_tables', arguments: {} }).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((unknown as McpError).message).toBe(
      "MCP error -32602: Unknown tool 'drop_tables'. The tools of this server are: lookup_order, add_note, wait_forever, export_report, unlock_admin.",
    );
    expect(sessions.flatMap((session) => session.slice(ToolInvoked).all())).toEqual([]);
  });

  it("sends the tool's progress reports as progress notifications", async () => {
    const { client } = await serve();
    const progress: Progress[] = [];

    const result = await client.callTool({ name: 'export_report', arguments: {} }, undefined, {
      onprogress: (report) => progress.push(report),
    });

    expect(text(result)).toBe('Exported 3 parts.');
    expect(progress).toEqual([
      { progress: 1, total: 3, message: 'part 1 of 3' },
      { progress: 2, total: 3, message: 'part 2 of 3' },
      { progress: 3, total: 3, message: 'part 3 of 3' },
    ]);
  });

  it("aborts the call's signal when the client cancels the request", async () => {
    const { client, log } = await serve();
    const controller = new AbortController();

    const call = client.callTool({ name: 'wait_forever', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await log.started;
    controller.abort('the person closed the tab');

    await expect(call).rejects.toThrow();
    await expect(log.cancelled).resolves.toContain('the person closed the tab');
  });

  it('tells the client when a call opened a summarized section of a prompt without enabled predicates', async () => {
    const openShelf = new ToolDefinition({
      name: 'open_shelf',
      description: 'Open the shelf.',
      handler: (_params, context) => {
        context.session.dispatch(
          new SectionVisibilityOverride({ sectionPath: 'shelf', visibility: 'full' }),
        );
        return ToolResult.ok(null, 'Opened.');
      },
    });
    const take = new ToolDefinition({
      name: 'take',
      description: 'Take a thing from the shelf.',
      handler: () => ToolResult.ok(null, 'Taken.'),
    });
    const prompt = new Prompt({
      ns: 'test',
      key: 'shelf-desk',
      sections: [
        new MarkdownSection({
          key: 'desk',
          title: 'Desk',
          template: 'A desk.',
          tools: [openShelf],
        }),
        new MarkdownSection({
          key: 'shelf',
          title: 'Shelf',
          summary: 'A shelf.',
          visibility: 'summary',
          template: 'Things.',
          tools: [take],
        }),
      ],
    });
    const { client } = await serve({ prompt });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
    expect(await names()).toEqual(['open_shelf', 'open_sections']);

    await client.callTool({ name: 'open_shelf', arguments: {} });
    await eventually('the list_changed notification', () => changed > 0);
    await client.callTool({ name: 'open_shelf', arguments: {} });
    await client.callTool({ name: 'take', arguments: {} });

    expect(changed).toBe(1);
    expect(await names()).toEqual(['open_shelf', 'take']);
  });

  it('tells the client when a call changed which tools are enabled', async () => {
    const { client } = await serve();
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    await client.listTools();

    await client.callTool({ name: 'lookup_order', arguments: { orderId: 'A-1' } });
    expect(changed).toBe(0);
    await client.callTool({ name: 'unlock_admin', arguments: {} });
    await eventually('the list_changed notification', () => changed > 0);

    expect(changed).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('purge_cache');
    expect(text(await client.callTool({ name: 'purge_cache', arguments: {} }))).toBe(
      'Cache purged.',
    );
  });

  it('serves only the chosen sections, and refuses a section the prompt does not have', async () => {
    const { client } = await serve({ sections: ['admin'] });
    const runtime = installAffordance(new Container());

    expect((await client.listTools()).tools).toEqual([]);
    expect(
      () => new McpToolServer({ runtime, prompt: mcpDesk().prompt, sections: ['desks'] }),
    ).toThrow(ConfigurationError);
    expect(
      () => new McpToolServer({ runtime, prompt: mcpDesk().prompt, sections: ['desks'] }),
    ).toThrow('Fix: Pass section paths of the prompt in `sections`: desk, admin.');
  });

  it('gives each client session its own affordance session, and forgets a session the client deletes', async () => {
    const { url, client, handler, sessions } = await serve();
    const second = await connect(url);
    open[0]?.clients.push(second);

    await client.callTool({ name: 'add_note', arguments: { text: 'first' } });
    await second.callTool({ name: 'add_note', arguments: { text: 'second' } });

    expect(sessions.map((session) => session.slice(Note).all())).toEqual([
      [new Note('first')],
      [new Note('second')],
    ]);
    expect(handler.openSessions).toBe(2);
    await (second.transport as StreamableHTTPClientTransport).terminateSession();
    expect(handler.openSessions).toBe(1);
  });

  it('refuses a request without a session, and one for an unknown session', async () => {
    const { url } = await serve();
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

    const none = await fetch(url, { method: 'POST', headers, body });
    const unknown = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': 'no-such-session' },
      body,
    });

    expect(none.status).toBe(400);
    expect(await none.text()).toContain('send an initialize request first');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("MCP session 'no-such-session' is unknown or closed");
  });

  it('closes a session idle for longer than idleTimeoutMs, after which its id is unknown', async () => {
    const { client, handler } = await serve({}, { idleTimeoutMs: 60_000 });
    await client.callTool({ name: 'lookup_order', arguments: { orderId: 'A-1' } });

    expect(await handler.closeIdleSessions(Date.now() + 30_000)).toBe(0);
    expect(await handler.closeIdleSessions(Date.now() + 61_000)).toBe(1);

    expect(handler.openSessions).toBe(0);
    await expect(client.listTools()).rejects.toThrow(/unknown or closed/);
  });

  it('refuses an idle timeout that is not a non-negative number, with a Fix', () => {
    const server = new McpToolServer({
      runtime: installAffordance(new Container()),
      prompt: mcpDesk().prompt,
    });

    expect(() => new McpHttpHandler(server, { idleTimeoutMs: -1 })).toThrow(
      'McpHttpHandler: idleTimeoutMs must be a non-negative number of milliseconds, got -1. Fix: Pass e.g. `idleTimeoutMs: 600_000`',
    );
  });
});
