import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

import { ConfigurationError } from '../index.js';
import { quotedName } from '../provider/index.js';
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  type McpAuthorize,
  type McpHttpHandlerOptions,
} from './mcp-http-handler-options.js';
import { isClientGone, type McpRefusal, refuse } from './mcp-refusal.js';
import { McpRequestPolicy } from './mcp-request-policy.js';
import type { McpToolServer } from './mcp-tool-server.js';
import { readMcpBody } from './read-mcp-body.js';

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
 * Every request is checked first, before any session work: its Host and
 * Origin (loopback ones by default: `allowedHosts`, `allowedOrigins`), your
 * `authorize` hook, and for a POST its Content-Type, Accept and body size
 * (`maxBodyBytes`); at most `maxSessions` sessions are open at once.
 *
 * @example
 * const mcp = new McpHttpHandler(new McpToolServer({ runtime, prompt }));
 * createServer((req, res) => {
 *   mcp.handle(req, res).catch((error: unknown) => {
 *     console.error(error); // a server fault: handle() never rejects for a client's
 *     res.destroy();
 *   });
 * }).listen(3000, '127.0.0.1');
 */
export class McpHttpHandler {
  readonly #server: McpToolServer;
  readonly #options: McpHttpHandlerOptions;
  readonly #policy: McpRequestPolicy;
  readonly #sessions = new Map<string, OpenSession>();
  /** Transports built for an `initialize` whose session is not open yet (they count towards `maxSessions`). */
  readonly #opening = new Set<StreamableHTTPServerTransport>();
  readonly #idleTimeoutMs: number;
  #sweeper: NodeJS.Timeout | undefined;

  constructor(server: McpToolServer, options: McpHttpHandlerOptions = {}) {
    this.#server = server;
    this.#options = options;
    this.#policy = new McpRequestPolicy(options);
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
   * when a framework already read it (Express, NestJS); otherwise it is read
   * here. Resolves once the request is answered; a client's fault (a refused
   * request, a body cut off, a connection dropped while it is read or
   * written) is answered, or dropped when its connection is gone, and never
   * rejects. It rejects only for a server fault (an `authorize` hook that
   * throws, a bug), after answering 500 when it still can.
   */
  async handle(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    try {
      const refusal = await this.#handle(req, res, body);
      if (refusal !== undefined) refuse(res, refusal);
    } catch (error) {
      if (isClientGone(error, res)) return;
      refuse(res, { status: 500, message: 'Internal error: the MCP server failed this request.' });
      throw error;
    }
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

  /** Serves `req`, or says why it is refused (answered by {@link McpHttpHandler.handle}). */
  async #handle(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
  ): Promise<McpRefusal | undefined> {
    const refusal = this.#policy.check(req) ?? (await authorization(this.#options.authorize, req));
    if (refusal !== undefined) return refusal;
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const open = this.#sessions.get(sessionId);
      if (open === undefined) {
        const message = `MCP session ${quotedName(sessionId)} is unknown or closed; initialize a new one.`;
        return { status: 404, message };
      }
      open.lastUsed = Date.now();
      await this.#serve(open.transport, req, res, body);
      return undefined;
    }
    if (req.method !== 'POST') return NO_SESSION;
    let parsed = body;
    if (parsed === undefined) {
      const read = await readMcpBody(req, this.#policy.maxBodyBytes);
      if (read.kind !== 'json') return this.#unread(read.kind);
      parsed = read.value;
    }
    const { isInitializeRequest } = await import('@modelcontextprotocol/sdk/types.js');
    if (!isInitializeRequest(parsed)) return NO_SESSION;
    const full = await this.#full();
    if (full !== undefined) return full;
    const transport = await this.#open();
    try {
      await this.#serve(transport, req, res, parsed);
    } finally {
      this.#opening.delete(transport);
    }
    return undefined;
  }

  /** The refusal of a body that was too large or cut off; its connection is closed after the answer. */
  #unread(kind: 'too-large' | 'cut-off'): McpRefusal {
    const headers = { connection: 'close' };
    if (kind === 'cut-off') {
      return { status: 400, message: 'Bad Request: the request body was cut off.', headers };
    }
    const max = this.#policy.maxBodyBytes;
    return {
      status: 413,
      message: `Payload Too Large: an MCP request body must be at most ${max} bytes.`,
      headers,
    };
  }

  /** The refusal of a new session when `maxSessions` are open (after closing the idle ones). */
  async #full(): Promise<McpRefusal | undefined> {
    const max = this.#policy.maxSessions;
    if (this.#sessions.size + this.#opening.size < max) return undefined;
    await this.closeIdleSessions();
    if (this.#sessions.size + this.#opening.size < max) return undefined;
    return {
      status: 503,
      message: `Service Unavailable: this MCP server has its maximum of ${max} sessions open; retry later.`,
      headers: { 'retry-after': '60' },
    };
  }

  #serve(
    transport: StreamableHTTPServerTransport,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
  ): Promise<void> {
    // Only a POST carries calls; a GET holds the client's event stream open for as long as it is connected.
    if (req.method !== 'POST') return transport.handleRequest(req, res, body);
    return this.#server.handleHttp(req, res, () => transport.handleRequest(req, res, body));
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
    // Host and Origin were checked before (McpRequestPolicy), the same way for every request.
    const transport: StreamableHTTPServerTransport = new http.StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: this.#options.jsonResponse ?? false,
      maxRequestBodySize: this.#policy.maxBodyBytes,
      onsessioninitialized: (id) => {
        this.#opening.delete(transport);
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
    this.#opening.add(transport);
    try {
      const server = await this.#server.createServer();
      await server.connect(transport);
    } catch (error) {
      this.#opening.delete(transport);
      throw error;
    }
    return transport;
  }
}

const NO_SESSION: McpRefusal = {
  status: 400,
  message:
    'No MCP session: send an initialize request first, then the mcp-session-id header it returns.',
};

/** The refusal `authorize` decides for `req`, or `undefined` to serve it. */
async function authorization(
  authorize: McpAuthorize | undefined,
  req: IncomingMessage,
): Promise<McpRefusal | undefined> {
  if (authorize === undefined) return undefined;
  const decision = await authorize(req);
  if (decision === true) return undefined;
  if (decision === false) {
    return { status: 401, message: 'Unauthorized: this MCP endpoint refused the request.' };
  }
  return decision;
}
