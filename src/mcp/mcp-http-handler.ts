import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

import { ConfigurationError } from '../index.js';
import type { McpToolServer } from './mcp-tool-server.js';

/** Options of an {@link McpHttpHandler}. */
export interface McpHttpHandlerOptions {
  /**
   * Host headers to accept (DNS rebinding protection), e.g.
   * `['127.0.0.1:3000', 'localhost:3000']`; any host when omitted.
   */
  readonly allowedHosts?: readonly string[] | undefined;
  /** Answer calls with plain JSON instead of an event stream (no progress notifications then). */
  readonly jsonResponse?: boolean | undefined;
  /**
   * Close a client session after this many milliseconds without a request
   * (a client that never sends DELETE would otherwise hold its session and
   * server forever). Default 30 minutes; `0` never closes them.
   */
  readonly idleTimeoutMs?: number | undefined;
}

const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60_000;

/** One client session: its transport and when it was last used. */
interface OpenSession {
  readonly transport: StreamableHTTPServerTransport;
  lastUsed: number;
}

/**
 * Serves an {@link McpToolServer} over Streamable HTTP, the MCP transport for
 * remote servers: give it every request to the endpoint (POST, GET and
 * DELETE) with `handle(req, res, body)`. Each client session (opened by its
 * `initialize` request, named by the `mcp-session-id` header) gets its own
 * SDK server and affordance session until the client deletes it or `close()`.
 *
 * @example
 * const mcp = new McpHttpHandler(new McpToolServer({ runtime, prompt }));
 * createServer((req, res) => void mcp.handle(req, res)).listen(3000, '127.0.0.1');
 */
export class McpHttpHandler {
  readonly #server: McpToolServer;
  readonly #options: McpHttpHandlerOptions;
  readonly #sessions = new Map<string, OpenSession>();
  readonly #idleTimeoutMs: number;
  #sweeper: NodeJS.Timeout | undefined;

  constructor(server: McpToolServer, options: McpHttpHandlerOptions = {}) {
    this.#server = server;
    this.#options = options;
    const idle = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    if (!Number.isFinite(idle) || idle < 0) {
      throw new ConfigurationError({
        subject: 'McpHttpHandler',
        problem: `idleTimeoutMs must be a non-negative number of milliseconds, got ${String(idle)}.`,
        fix: 'Pass e.g. `idleTimeoutMs: 600_000` (ten minutes), `0` to never close idle sessions, or leave it out for 30 minutes.',
      });
    }
    this.#idleTimeoutMs = idle;
  }

  /** How many client sessions are open. */
  get openSessions(): number {
    return this.#sessions.size;
  }

  /**
   * Handles one HTTP request to the endpoint. `body` is the parsed JSON body
   * when a framework already read it (Express, NestJS); otherwise it is read here.
   */
  async handle(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    const open = sessionId === undefined ? undefined : this.#sessions.get(sessionId);
    if (open !== undefined) open.lastUsed = Date.now();
    let transport = open?.transport;
    if (transport === undefined) {
      if (sessionId !== undefined) {
        refuse(res, 404, `MCP session '${sessionId}' is unknown or closed; initialize a new one.`);
        return;
      }
      const parsed = body ?? (req.method === 'POST' ? await readJson(req) : undefined);
      const { isInitializeRequest } = await import('@modelcontextprotocol/sdk/types.js');
      if (req.method !== 'POST' || !isInitializeRequest(parsed)) {
        refuse(
          res,
          400,
          'No MCP session: send an initialize request first, then the mcp-session-id header it returns.',
        );
        return;
      }
      transport = await this.#open();
      body = parsed;
    }
    const target = transport;
    // Only a POST carries calls; a GET holds the client's event stream open for as long as it is connected.
    if (req.method !== 'POST') {
      await target.handleRequest(req, res, body);
      return;
    }
    await this.#server.handleHttp(req, res, () => target.handleRequest(req, res, body));
  }

  /** Closes every open client session. */
  async close(): Promise<void> {
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(open.map((session) => session.transport.close()));
  }

  /** Closes the sessions idle for longer than `idleTimeoutMs`; runs on a timer while sessions are open. */
  async closeIdleSessions(now = Date.now()): Promise<number> {
    const idle = [...this.#sessions].filter(
      ([, session]) => now - session.lastUsed > this.#idleTimeoutMs,
    );
    for (const [id] of idle) this.#sessions.delete(id);
    await Promise.all(idle.map(([, session]) => session.transport.close().catch(() => undefined)));
    if (this.#sessions.size === 0 && this.#sweeper !== undefined) {
      clearInterval(this.#sweeper);
      this.#sweeper = undefined;
    }
    return idle.length;
  }

  /** Starts the idle sweep (unreferenced: it never keeps the process alive). */
  #sweep(): void {
    if (this.#idleTimeoutMs === 0 || this.#sweeper !== undefined) return;
    const every = Math.max(1000, Math.min(60_000, this.#idleTimeoutMs / 2));
    this.#sweeper = setInterval(() => void this.closeIdleSessions(), every);
    this.#sweeper.unref();
  }

  async #open(): Promise<StreamableHTTPServerTransport> {
    const http = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    const hosts = this.#options.allowedHosts;
    const transport: StreamableHTTPServerTransport = new http.StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: this.#options.jsonResponse ?? false,
      ...(hosts === undefined
        ? {}
        : { allowedHosts: [...hosts], enableDnsRebindingProtection: true }),
      onsessioninitialized: (id) => {
        this.#sessions.set(id, { transport, lastUsed: Date.now() });
        this.#sweep();
      },
      onsessionclosed: (id) => {
        this.#sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.#sessions.delete(transport.sessionId);
    };
    const server = await this.#server.createServer();
    await server.connect(transport);
    return transport;
  }
}

/** A JSON-RPC error response for a request that has no session to go to. */
function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** The JSON body of `req`, or `undefined` when it is not JSON. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
