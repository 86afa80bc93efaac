import type { Readable, Writable } from 'node:stream';

import type { McpToolServer } from './mcp-tool-server.js';

/** A running stdio MCP server: close it to stop answering. */
export interface McpStdioServing {
  /** Closes the transport (the process's streams stay open). */
  close(): Promise<void>;
}

/**
 * Serves `server`'s tools over stdio (the process's stdin and stdout by
 * default): the way an MCP host (an IDE, a desktop assistant) starts a tool
 * server as a command. Nothing else may write to stdout; log to stderr.
 *
 * @example
 * await serveMcpStdio(new McpToolServer({ runtime, prompt }));
 */
export async function serveMcpStdio(
  server: McpToolServer,
  streams: { readonly stdin?: Readable; readonly stdout?: Writable } = {},
): Promise<McpStdioServing> {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const transport = new StdioServerTransport(streams.stdin, streams.stdout);
  const sdkServer = await server.createServer();
  await sdkServer.connect(transport);
  return { close: () => sdkServer.close() };
}
