/**
 * A real MCP endpoint on 127.0.0.1 for the hardening tests: an `McpHttpHandler`
 * wired as its doc comment shows, every `handle()` promise kept so a test can
 * see that it settled (and how), a count of the SDK servers built, and raw
 * HTTP clients (node:http, node:net) that misbehave on purpose.
 */
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { Container } from 'inversify';

import { installAffordance, MarkdownSection, Prompt, ToolDefinition, ToolResult } from 'affordance';
import { McpHttpHandler, type McpHttpHandlerOptions, McpToolServer } from 'affordance/mcp';

import { type Deferred, deferred } from '../support/deferred.js';

/** An McpToolServer that counts the SDK servers it builds (one per session opened). */
class CountingServer extends McpToolServer {
  built = 0;

  override createServer(): ReturnType<McpToolServer['createServer']> {
    this.built += 1;
    return super.createServer();
  }
}

/** One request the endpoint received: its `handle()` promise and how it settled. */
export interface Handled {
  readonly req: IncomingMessage;
  /** Resolves with `'resolved'`, or with the rejection's message. */
  readonly settled: Promise<string>;
}

/** The endpoint under test. */
export interface Endpoint {
  readonly port: number;
  readonly url: URL;
  readonly handler: McpHttpHandler;
  /** How many SDK servers were built (sessions opened or attempted). */
  readonly built: () => number;
  /** The `handle()` of the first request carrying `x-probe: probe`, once it arrived. */
  readonly probe: (probe: string) => Promise<Handled>;
  /** Resolved when the `hold` tool has started; `release` lets it answer. */
  readonly held: { readonly started: Deferred; readonly release: Deferred };
  readonly clients: Client[];
}

const open: { server: Server; endpoint: Endpoint }[] = [];

/** Closes every endpoint (and its clients) the test started. */
export async function closeEndpoints(): Promise<void> {
  for (const { server, endpoint } of open.splice(0)) {
    for (const client of endpoint.clients) await client.close().catch(() => undefined);
    await endpoint.handler.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Starts an endpoint serving a prompt with an `echo` tool and a `hold` tool that waits for the test. */
export async function startEndpoint(options: McpHttpHandlerOptions = {}): Promise<Endpoint> {
  const held = { started: deferred(), release: deferred() };
  const tools = [
    new ToolDefinition({
      name: 'echo',
      description: 'Answer ok.',
      readOnly: true,
      handler: () => ToolResult.ok(null, 'ok'),
    }),
    new ToolDefinition({
      name: 'hold',
      description: 'Wait until the test releases it.',
      handler: async () => {
        held.started.resolve();
        await held.release.promise;
        return ToolResult.ok(null, 'released');
      },
    }),
  ];
  const prompt = new Prompt({
    ns: 'test',
    key: 'hardened-endpoint',
    sections: [new MarkdownSection({ key: 'desk', title: 'Desk', template: 'Desk.', tools })],
  });
  const server = new CountingServer({ runtime: installAffordance(new Container()), prompt });
  const handler = new McpHttpHandler(server, options);
  const handled: Handled[] = [];
  const waiting = new Map<string, Deferred<Handled>>();
  const waiter = (probe: string): Deferred<Handled> => {
    const known = waiting.get(probe) ?? deferred<Handled>();
    waiting.set(probe, known);
    return known;
  };
  const http = createServer((req, res) => {
    const settled = handler.handle(req, res).then(
      () => 'resolved',
      (error: unknown) => {
        res.destroy();
        return error instanceof Error ? error.message : String(error);
      },
    );
    const entry = { req, settled };
    handled.push(entry);
    const probe = req.headers['x-probe'];
    if (typeof probe === 'string') waiter(probe).resolve(entry);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  const endpoint: Endpoint = {
    port,
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    handler,
    built: () => server.built,
    probe: (probe) => waiter(probe).promise,
    held,
    clients: [],
  };
  open.push({ server: http, endpoint });
  return endpoint;
}

/** An MCP SDK client connected to `endpoint`, sending `headers` with each request. */
export async function clientOf(
  endpoint: Endpoint,
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: 'hardening', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(endpoint.url, { requestInit: { headers } }),
  );
  endpoint.clients.push(client);
  return client;
}

/** The JSON text of an `initialize` request whose client is called `name`. */
export function initializeBody(name = 'probe'): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name, version: '1.0.0' },
    },
  });
}

/** The headers a well-behaved MCP client sends with a POST. */
export const POST_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** What an HTTP exchange came back with. */
export interface Answer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly text: string;
}

/** POSTs `body` to the endpoint with node:http (which lets a test set Host and Origin). */
export function post(
  endpoint: Endpoint,
  body: string,
  headers: Record<string, string> = {},
  method = 'POST',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      endpoint.url,
      { method, agent: false, headers: { ...POST_HEADERS, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A raw TCP connection to the endpoint, collecting everything the server sends until it closes. */
export interface RawConnection {
  readonly socket: Socket;
  /** Everything received, once the server closed the connection (or it broke). */
  readonly received: Promise<string>;
}

/** Opens a raw connection and writes `head` (the request line and headers, CRLF-separated) and `body`. */
export async function raw(
  endpoint: Endpoint,
  head: readonly string[],
  body: string | Buffer = '',
): Promise<RawConnection> {
  const socket = connect(endpoint.port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const received = new Promise<string>((resolve) => {
    // A reset after the answer (the server closed while the client still wrote) is expected.
    socket.on('error', () => undefined);
    socket.once('close', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
  socket.write([...head, '', ''].join('\r\n'));
  if (body.length > 0) socket.write(body);
  return { socket, received };
}

/** The status code of a raw HTTP answer, 0 when nothing came back. */
export function statusOf(text: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
}
