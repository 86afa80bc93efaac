import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

import type { SkippedMcpTool } from './skipped-mcp-tool.js';

/** An MCP server started as a command and spoken to over its stdin and stdout. */
export interface McpCommandServer {
  /** The executable, e.g. `npx` or `node`. */
  readonly command: string;
  /** Its arguments. */
  readonly args?: readonly string[] | undefined;
  /** Its environment; the SDK's safe default set of variables when omitted. */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Its working directory. */
  readonly cwd?: string | undefined;
}

/** A remote MCP server reached over Streamable HTTP. */
export interface McpUrlServer {
  /** The endpoint, e.g. `https://tools.example.com/mcp`. */
  readonly url: string | URL;
  /** Headers sent with every request (e.g. `authorization`). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** Any other transport of the SDK (or your own), made anew for each connection attempt. */
export interface McpTransportServer {
  /** Builds a transport that is not started yet. */
  readonly transport: () => Transport;
}

/** Where an {@link McpToolsSection} finds its server. */
export type McpServerAddress = McpCommandServer | McpUrlServer | McpTransportServer;

/** Options of `McpToolsSection.connect`. */
export interface McpToolsSectionOptions {
  /** The section key (also the start of its tools' class names), e.g. `weather`. */
  readonly key: string;
  /** The section heading; the server's name by default. */
  readonly title?: string | undefined;
  /** The section body; the server's `instructions` by default (empty when it gives none). */
  readonly template?: string | undefined;
  /** The server. */
  readonly server: McpServerAddress;
  /** Put before every tool name, so two servers' tools cannot clash, e.g. `weather_`. */
  readonly toolPrefix?: string | undefined;
  /**
   * What to do with a tool whose input schema affordance cannot validate (a
   * remote `$ref`, a pattern with a backreference, an unknown keyword or
   * format; see `jsonSchemaProblems`) or whose name clashes: `'skip'`
   * (default) leaves that tool out, lists it in `section.skipped` with its
   * reasons and tells `onSkippedTools`; `'error'` (strict) fails `connect`
   * (or the refresh) naming every such tool and the schema part. A schema is
   * never trusted without validation, and one tool never costs the others.
   */
  readonly unsupportedSchemas?: 'error' | 'skip' | undefined;
  /**
   * Told, after each listing of the server's tools, which tools were left
   * out and why (only when some were), e.g. to log them.
   */
  readonly onSkippedTools?: ((skipped: readonly SkippedMcpTool[]) => void) | undefined;
  /**
   * How often to try again when the connection fails or drops, before a call
   * or a refresh gives up (with `retryDelayMs` between tries). Default 2.
   * A call that was sent when the connection dropped is not sent again: the
   * model reads that it may or may not have run.
   */
  readonly reconnectAttempts?: number | undefined;
  /** Milliseconds between connection attempts; default 250. */
  readonly retryDelayMs?: number | undefined;
  /**
   * Told when listing the tools again after the server announced a change
   * failed (the section keeps the tools it had; `section.refreshError` holds
   * the error until a refresh succeeds).
   */
  readonly onRefreshError?: ((error: unknown) => void) | undefined;
}
