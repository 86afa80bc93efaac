import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import type { ToolCallOutcome } from '../index.js';
import { mcpContentOf } from './mcp-media-content.js';

/**
 * The MCP result of a call: the tool message a model would read, as text,
 * then the result's media parts as MCP image, audio and embedded resource
 * content, with `isError` when the call failed (invalid arguments, a denial,
 * a thrown handler), so the client's model sees what went wrong. @internal
 */
export function callResult(outcome: ToolCallOutcome): CallToolResult {
  return {
    content: [{ type: 'text', text: outcome.message }, ...mcpContentOf(outcome.result.parts)],
    isError: !outcome.result.success,
  };
}

/** The `isError` result of a call that could not run or stopped (deadline, cancellation, a thrown `callTool`). @internal */
export function thrownResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
