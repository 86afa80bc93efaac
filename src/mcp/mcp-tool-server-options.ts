import type { IncomingMessage } from 'node:http';

import type {
  AffordanceRuntime,
  CallToolOptions,
  Prompt,
  Session,
  ToolCallOutcome,
  ToolCallRequest,
} from '../index.js';

/** One MCP call as {@link McpToolServerOptions} callbacks see it. */
export interface McpCallContext {
  /** The MCP session id (Streamable HTTP); `undefined` over stdio. */
  readonly sessionId: string | undefined;
  /** The HTTP request that carried the call (Streamable HTTP); `undefined` over stdio. */
  readonly httpRequest: IncomingMessage | undefined;
  /** The affordance session the connection's calls record into. */
  readonly session: Session;
}

/** Runs one MCP call: `runtime.callTool` by default; the NestJS mounting runs it in the request's context. */
export type McpCallTool = (
  prompt: Prompt,
  request: ToolCallRequest,
  options: CallToolOptions,
  call: McpCallContext,
) => Promise<ToolCallOutcome>;

/** Options of an {@link McpToolServer}. */
export interface McpToolServerOptions {
  /** The runtime the calls run on. */
  readonly runtime: AffordanceRuntime;
  /** The prompt whose tools are served: its enabled sections' tools, as an evaluation would offer them. */
  readonly prompt: Prompt;
  /**
   * Serve only the tools of these sections (and their subsections), by section
   * path, e.g. `['orders', 'desk.refunds']`. Every tool of the prompt by default.
   */
  readonly sections?: readonly string[] | undefined;
  /** The server's name in the MCP handshake; the prompt's key by default. */
  readonly name?: string | undefined;
  /** The server's version in the MCP handshake; `0.0.0` by default. */
  readonly version?: string | undefined;
  /** Params instances for the prompt's sections (rendering decides which tools are enabled). */
  readonly params?: readonly object[] | undefined;
  /**
   * The affordance session of one MCP connection (an MCP session over HTTP,
   * the process over stdio), asked once on its first request. A new, empty
   * session by default, so the state a tool keeps (a plan, a read-before-write
   * ledger) lasts as long as the client's connection.
   */
  readonly session?:
    | ((connection: { readonly sessionId: string | undefined }) => Session | Promise<Session>)
    | undefined;
  /**
   * Per-call options (deadline, approve, resources, adapter for nested
   * evaluations...). `session`, `params`, `signal` and `onProgress` are the server's.
   */
  readonly callOptions?:
    ((call: McpCallContext) => CallToolOptions | Promise<CallToolOptions>) | undefined;
  /** Replaces `runtime.callTool` for each call (the NestJS mounting uses it). */
  readonly callTool?: McpCallTool | undefined;
}
