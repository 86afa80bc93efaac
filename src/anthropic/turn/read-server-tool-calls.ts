import { NativeTool, type ToolDefinition, ToolResult } from '../../index.js';
import type { ProviderNativeCall } from '../../provider/index.js';
import { serverToolOf } from '../request/native-tool-entry.js';
import type { Block } from './content-block.js';

/** Server tool names (as `server_tool_use.name` gives them) and the server tool they belong to. */
const serverToolNames: ReadonlyMap<string, string> = new Map([
  ['web_search', 'web_search'],
  ['web_fetch', 'web_fetch'],
  ['code_execution', 'code_execution'],
  ['bash_code_execution', 'code_execution'],
  ['text_editor_code_execution', 'code_execution'],
]);

/** Block types of calls the provider runs itself. */
export const serverCallTypes: ReadonlySet<string> = new Set(['server_tool_use', 'mcp_tool_use']);

/**
 * The calls the provider ran in one response: each `server_tool_use` (or
 * `mcp_tool_use`) block paired with the `*_tool_result` block naming its id,
 * named after the prompt's matching `NativeTool` (the block's own name when
 * none matches). The result's value is `{ call, result }`; a result whose
 * content is an error object (`*_tool_result_error`, `is_error`) is a failed
 * result naming the provider's error code, and a call without a result in the
 * response is a failed result saying so.
 */
export function readServerToolCalls(
  blocks: readonly Block[],
  tools: readonly ToolDefinition[],
): ProviderNativeCall[] {
  const results = new Map<string, Block>();
  for (const block of blocks) {
    const id = block['tool_use_id'];
    if (typeof id === 'string' && String(block['type']).endsWith('_tool_result')) {
      results.set(id, block);
    }
  }
  return blocks
    .filter((block) => serverCallTypes.has(String(block['type'])))
    .map((call) => {
      const callId = String(call['id']);
      const blockName = String(call['name']);
      const kind = serverToolNames.get(blockName);
      const tool = tools.find(
        (candidate): candidate is NativeTool =>
          candidate instanceof NativeTool && serverToolOf(candidate) === kind,
      );
      const name = tool?.name ?? blockName;
      const result = results.get(callId);
      return {
        callId,
        name,
        arguments: call['input'] ?? {},
        result: resultOf(name, blockName, call, result),
      };
    });
}

function resultOf(
  name: string,
  blockName: string,
  call: Block,
  result: Block | undefined,
): ToolResult {
  if (result === undefined) {
    return ToolResult.error(`${name} (${blockName}) has no result in the response.`);
  }
  const error = errorOf(result);
  if (error !== undefined) return ToolResult.error(`${name} (${blockName}) failed: ${error}.`);
  return ToolResult.ok({ call, result }, summary(blockName, call));
}

/** The error code of a failed result, if it is one. */
function errorOf(result: Block): string | undefined {
  if (result['is_error'] === true) return 'is_error';
  const content = result['content'];
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return undefined;
  const record = content as Block;
  const type = String(record['type']);
  if (!type.endsWith('_error')) return undefined;
  return typeof record['error_code'] === 'string' ? record['error_code'] : type;
}

function summary(blockName: string, call: Block): string {
  const input = (call['input'] ?? {}) as Block;
  switch (blockName) {
    case 'web_search':
      return `Searched the web for '${String(input['query'])}'.`;
    case 'web_fetch':
      return `Fetched ${String(input['url'])}.`;
    case 'bash_code_execution':
      return `Ran '${String(input['command'])}' in the provider's container.`;
    case 'text_editor_code_execution':
      return `Edited ${String(input['path'])} (${String(input['command'])}) in the provider's container.`;
    case 'code_execution':
      return "Ran code in the provider's container.";
    default:
      return `The provider ran ${blockName}.`;
  }
}
