import type { IncomingMessage } from 'node:http';

/**
 * What an {@link McpHttpHandlerOptions.authorize} hook decides about one
 * request: `true` serves it; `false` refuses it with 401; a refusal object
 * answers with its own status (e.g. 403), message and headers (e.g.
 * `WWW-Authenticate`).
 */
export type McpAuthorization =
  | boolean
  | {
      /** The HTTP status to answer with, 401 or 403 typically. */
      readonly status: number;
      /** The JSON-RPC error message the client reads. */
      readonly message: string;
      /** Extra response headers, e.g. `{ 'www-authenticate': 'Bearer' }`. */
      readonly headers?: Readonly<Record<string, string>> | undefined;
    };

/**
 * Decides whether one HTTP request may reach the MCP endpoint. It runs for
 * every request (the `initialize` that would open a session and each request
 * of an open session), after the Host and Origin checks and before the body is
 * read or any session work starts. A hook that throws is a server fault:
 * `handle()` answers 500 and rejects with the error.
 */
export type McpAuthorize = (
  request: IncomingMessage,
) => McpAuthorization | Promise<McpAuthorization>;

/** Options of an {@link McpHttpHandler}. */
export interface McpHttpHandlerOptions {
  /**
   * Host header values to accept (DNS rebinding protection): a name matches
   * it on any port (`'localhost'`, `'mcp.example.com'`, `'[::1]'`), a name
   * with a port only on that port (`'127.0.0.1:3000'`). Default: the
   * loopback names `localhost`, `127.0.0.1` and `[::1]`, on any port. A
   * server reached under another name lists it; `'any'` turns the check off
   * (only behind a proxy that checks the host itself).
   */
  readonly allowedHosts?: readonly string[] | 'any' | undefined;
  /**
   * Origin header values to accept (a browser page's origin): a
   * `scheme://host` entry matches it on any port, `scheme://host:port` only on
   * that port. A request without an Origin header (a non-browser client) is
   * always accepted; one with any other Origin is refused with 403. Default:
   * the loopback origins `http://localhost`, `http://127.0.0.1`,
   * `http://[::1]` and their `https://` forms, on any port. `'any'` turns the
   * check off.
   */
  readonly allowedOrigins?: readonly string[] | 'any' | undefined;
  /**
   * Decides whether each request may reach the endpoint (your own
   * authentication: a bearer token, a session cookie); every request is
   * served when omitted. See {@link McpAuthorize}.
   */
  readonly authorize?: McpAuthorize | undefined;
  /**
   * The largest request body read, in bytes: a larger one is refused with 413
   * (at once when its Content-Length says so, else as soon as that many bytes
   * arrived). Default 4 MiB, the MCP SDK's own limit, which applies the same
   * value inside a session. A body your framework already parsed (Express,
   * NestJS) is bounded by the framework's body parser instead.
   */
  readonly maxBodyBytes?: number | undefined;
  /**
   * The most client sessions open at once; an `initialize` beyond it (after
   * idle sessions are closed) is refused with 503. Default 100.
   */
  readonly maxSessions?: number | undefined;
  /** Answer calls with plain JSON instead of an event stream (no progress notifications then). */
  readonly jsonResponse?: boolean | undefined;
  /**
   * Close a client session after this many milliseconds without a request
   * (a client that never sends DELETE would otherwise hold its session and
   * server forever). Default 30 minutes; `0` never closes them.
   */
  readonly idleTimeoutMs?: number | undefined;
}

/** The MCP SDK's request body limit (`DEFAULT_MAX_REQUEST_BODY_SIZE` in its `server/requestBody.js`). @internal */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** How many client sessions may be open at once unless `maxSessions` says otherwise. @internal */
export const DEFAULT_MAX_SESSIONS = 100;

/** How long a session may stay idle unless `idleTimeoutMs` says otherwise. @internal */
export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60_000;
