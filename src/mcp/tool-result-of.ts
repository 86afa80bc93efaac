import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { ToolResult } from '../index.js';
import { mcpResultContent } from './mcp-media-content.js';

/**
 * The `ToolResult` of an MCP call's result: its text items joined as the
 * message, its images, audio and embedded binary resources as the result's
 * media parts (checked by the `Media` factories and named in the message, so
 * the model knows where they were), `structuredContent` as the value, and a
 * failed result when the server set `isError`, so the model reads the
 * server's own words (a failed result carries no media). @internal
 */
export function toolResultOf(server: string, result: CallToolResult): ToolResult {
  const { texts, parts } = mcpResultContent(result);
  const text = texts.join('\n');
  if (result.isError === true) {
    return ToolResult.error(text === '' ? `The MCP server '${server}' reported an error.` : text);
  }
  // The text usually says what the structured value holds: the model reads it once.
  return new ToolResult({
    message: text === '' ? 'OK' : text,
    value: result.structuredContent ?? null,
    success: true,
    excludeValueFromContext: text !== '',
    parts,
  });
}
