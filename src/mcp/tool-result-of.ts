import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { ToolResult } from '../index.js';

/**
 * The `ToolResult` of an MCP call's result: its text parts joined as the
 * message (other parts named by kind, so the model knows they were there),
 * `structuredContent` as the value, and a failed result when the server set
 * `isError`, so the model reads the server's own words. @internal
 */
export function toolResultOf(server: string, result: CallToolResult): ToolResult {
  const parts = result.content.map((part) => {
    switch (part.type) {
      case 'text':
        return part.text;
      case 'image':
      case 'audio':
        return `[${part.type} ${part.mimeType}]`;
      case 'resource_link':
        return `[resource ${part.uri}]`;
      case 'resource':
        return 'text' in part.resource ? part.resource.text : `[resource ${part.resource.uri}]`;
      default:
        return '[unsupported content]';
    }
  });
  const text = parts.join('\n');
  if (result.isError === true) {
    return ToolResult.error(text === '' ? `The MCP server '${server}' reported an error.` : text);
  }
  // The text usually says what the structured value holds: the model reads it once.
  return new ToolResult({
    message: text === '' ? 'OK' : text,
    value: result.structuredContent ?? null,
    success: true,
    excludeValueFromContext: text !== '',
  });
}
