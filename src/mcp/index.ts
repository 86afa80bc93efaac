/**
 * `affordance/mcp`: serve a prompt's tools over the Model Context Protocol
 * (stdio and Streamable HTTP), and use an MCP server's tools in a prompt.
 * Built on the official `@modelcontextprotocol/sdk` (an optional peer,
 * loaded only when a server or connection starts).
 */
export { HostOriginCheck, type HostOriginCheckOptions } from './host-origin-check.js';
export { McpHttpHandler } from './mcp-http-handler.js';
export type {
  McpAuthorization,
  McpAuthorize,
  McpHttpHandlerOptions,
} from './mcp-http-handler-options.js';
export { McpToolServer } from './mcp-tool-server.js';
export type {
  McpCallContext,
  McpCallTool,
  McpToolServerOptions,
} from './mcp-tool-server-options.js';
export { serveMcpStdio, type McpStdioServing } from './serve-mcp-stdio.js';
export type {
  McpCommandServer,
  McpServerAddress,
  McpToolsSectionOptions,
  McpTransportServer,
  McpUrlServer,
} from './mcp-connection-options.js';
export { McpToolsSection } from './mcp-tools-section.js';
export type { SkippedMcpTool } from './skipped-mcp-tool.js';
export {
  type ParamsFromSchema,
  paramsClassFromJsonSchema,
  type SchemaProblem,
} from './json-schema-params.js';
