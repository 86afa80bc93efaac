/**
 * The support desk's tools served over the Model Context Protocol.
 *
 * `npm run example:mcp` serves them over Streamable HTTP on 127.0.0.1, then
 * plays an MCP host: the SDK's own `Client` lists the tools and calls them
 * (a search, a ticket with bad arguments, the corrected ticket), printing
 * what an MCP host's model would read. `npm run example:mcp -- --stdio`
 * serves them over stdio instead, for a host that starts the server as a
 * command (an IDE, a desktop assistant); it then writes only MCP to stdout.
 */
import 'reflect-metadata';

import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Container } from 'inversify';

import { installAffordance, Prompt, Session, ToolInvoked } from 'affordance';
import { McpHttpHandler, McpToolServer, serveMcpStdio } from 'affordance/mcp';
import { PlanningToolsSection } from 'affordance/planning';

import { KnowledgeBase } from '../support-desk/knowledge-base.js';
import { SupportDeskSection } from '../support-desk/support-desk-section.js';
import { Ticket, TicketDesk } from '../support-desk/ticket-desk.js';

/** The tools to serve: the support desk's and the planning tools, as the support agent has them. */
export const mcpDeskPrompt = new Prompt({
  ns: 'examples/mcp',
  key: 'support-desk',
  sections: [SupportDeskSection, PlanningToolsSection],
});

/** The MCP server of the support desk, on a container with the desk's services; `sessions` collects each connection's session. */
export function deskServer(sessions: Session[] = []): McpToolServer {
  const container = new Container();
  container.bind(KnowledgeBase).toSelf().inSingletonScope();
  container.bind(TicketDesk).toSelf().inSingletonScope();
  return new McpToolServer({
    runtime: installAffordance(container),
    prompt: mcpDeskPrompt,
    name: 'acme-support-desk',
    version: '1.0.0',
    session: () => {
      const session = new Session();
      sessions.push(session);
      return session;
    },
  });
}

/** The calls the example's host makes, in order. */
const calls = [
  { name: 'search_knowledge_base', arguments: { query: 'csv export error 500' } },
  {
    name: 'open_ticket',
    arguments: {
      email: 'dana at example.com',
      subject: 'CSV',
      description: 'fails',
      priority: 'high',
    },
  },
  {
    name: 'open_ticket',
    arguments: {
      email: 'dana@example.com',
      subject: 'CSV export fails with error 500',
      description:
        'Exporting all orders as CSV fails with error 500 since Monday; smaller exports work.',
      priority: 'urgent',
    },
  },
];

/**
 * Serves the desk over Streamable HTTP on 127.0.0.1, lists and calls its tools
 * with the SDK's client, prints what the client reads, and stops.
 */
export async function run(print: (line: string) => void = console.log) {
  const sessions: Session[] = [];
  const handler = new McpHttpHandler(deskServer(sessions));
  const http: Server = createServer((req, res) => {
    // handle() answers a client's fault itself; it rejects only for a server fault, already answered 500.
    handler.handle(req, res).catch((error: unknown) => {
      console.error(error);
      res.destroy();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  const client = new Client({ name: 'example-host', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(url));
    const server = client.getServerVersion();
    print(`MCP server ${server?.name ?? '?'} ${server?.version ?? '?'} at ${url.href}`);
    const { tools } = await client.listTools();
    print(`Tools (${tools.length}):`);
    for (const tool of tools) {
      const fields = Object.keys(tool.inputSchema.properties ?? {}).join(', ');
      print(`  ${tool.name}(${fields}): ${tool.description ?? ''}`);
    }
    const results = [];
    for (const call of calls) {
      const result = await client.callTool(call);
      const text = (result.content as { type: string; text?: string }[])
        .map((part) => part.text ?? `[${part.type}]`)
        .join('\n');
      print(`> ${call.name} ${JSON.stringify(call.arguments)}`);
      print(`  ${result.isError === true ? 'isError' : 'ok'}: ${text.replace(/\n/g, '\n  ')}`);
      results.push(result);
    }
    const session = sessions[0];
    const recorded = session?.slice(ToolInvoked).all() ?? [];
    print(
      `Recorded ${recorded.length} ToolInvoked events (${recorded.map((event) => event.outcome).join(', ')}); ` +
        `tickets: ${(session?.slice(Ticket).all() ?? []).map((ticket) => ticket.id).join(', ') || 'none'}.`,
    );
    return { tools, results, sessions };
  } finally {
    await client.close();
    await handler.close();
    await new Promise((resolve) => http.close(resolve));
  }
}

if (
  process.argv[1] !== undefined &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
) {
  if (process.argv.includes('--stdio')) {
    await serveMcpStdio(deskServer());
    process.stderr.write('acme-support-desk serves MCP on stdio.\n');
  } else {
    await run();
  }
}
