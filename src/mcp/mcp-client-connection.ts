import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';

import { callToolAsTask } from './call-tool-as-task.js';
import type { McpCallRequest } from './mcp-call-request.js';
import type { McpServerAddress, McpToolsSectionOptions } from './mcp-connection-options.js';

/**
 * One client connection to an MCP server, opened again when it failed or
 * dropped (up to `reconnectAttempts` more tries per use). @internal
 */
export class McpClientConnection {
  readonly #server: McpServerAddress;
  readonly #attempts: number;
  readonly #delayMs: number;
  readonly #onListChanged: () => void;
  #client: Promise<Client> | undefined;
  #closed = false;

  constructor(options: McpToolsSectionOptions, onListChanged: () => void) {
    this.#server = options.server;
    this.#attempts = options.reconnectAttempts ?? 2;
    this.#delayMs = options.retryDelayMs ?? 250;
    this.#onListChanged = onListChanged;
  }

  /** The connected client, connecting (with retries) when there is none. */
  async client(): Promise<Client> {
    if (this.#closed) throw new Error('The MCP connection was closed.');
    this.#client ??= this.#connectWithRetries();
    try {
      return await this.#client;
    } catch (error) {
      this.#client = undefined;
      throw error;
    }
  }

  /** The server's whole tool list (every page). */
  async listTools(): Promise<Tool[]> {
    const client = await this.client();
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  /** Calls a tool once; a dropped connection is reopened for the next use, never to resend this call. */
  async callTool(request: McpCallRequest): Promise<CallToolResult> {
    const client = await this.client();
    if (request.asTask === true) return callToolAsTask(client, request);
    const result = await client.callTool(
      { name: request.name, arguments: request.arguments },
      undefined,
      { signal: request.signal, onprogress: request.onProgress, resetTimeoutOnProgress: true },
    );
    return result as CallToolResult;
  }

  /** Closes the connection; later uses fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    if (client !== undefined) await (await client.catch(() => undefined))?.close();
  }

  async #connectWithRetries(): Promise<Client> {
    let last: unknown;
    for (let attempt = 0; attempt <= this.#attempts; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, this.#delayMs));
      try {
        return await this.#connect();
      } catch (error) {
        last = error;
      }
    }
    throw last;
  }

  async #connect(): Promise<Client> {
    const sdk = await import('@modelcontextprotocol/sdk/client/index.js');
    const types = await import('@modelcontextprotocol/sdk/types.js');
    const client = new sdk.Client({ name: 'affordance', version: '0.1.0' });
    client.setNotificationHandler(types.ToolListChangedNotificationSchema, () => {
      this.#onListChanged();
    });
    const transport = await transportFor(this.#server);
    client.onclose = () => {
      // Reopened on next use.
      if (this.#client !== undefined) this.#client = undefined;
    };
    await client.connect(transport);
    return client;
  }
}

/** A new, unstarted transport for `server`. */
async function transportFor(server: McpServerAddress): Promise<Transport> {
  if ('transport' in server) return server.transport();
  if ('url' in server) {
    const http = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const headers = server.headers;
    return new http.StreamableHTTPClientTransport(
      new URL(server.url),
      headers === undefined ? undefined : { requestInit: { headers: { ...headers } } },
    );
  }
  const stdio = await import('@modelcontextprotocol/sdk/client/stdio.js');
  return new stdio.StdioClientTransport({
    command: server.command,
    args: [...(server.args ?? [])],
    ...(server.env === undefined ? {} : { env: { ...server.env } }),
    ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
    stderr: 'inherit',
  });
}
