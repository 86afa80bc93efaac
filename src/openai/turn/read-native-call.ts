import { type ProviderNativeCall } from '../../provider/index.js';
import { NativeTool, type ToolDefinition, ToolResult } from '../../index.js';

type Item = Readonly<Record<string, unknown>>;

/** Output item types OpenAI executes itself, and the tool types that produce them. */
export const nativeCallTypes: ReadonlyMap<string, readonly string[]> = new Map([
  [
    'web_search_call',
    ['web_search', 'web_search_2025_08_26', 'web_search_preview', 'web_search_preview_2025_03_11'],
  ],
  ['file_search_call', ['file_search']],
  ['code_interpreter_call', ['code_interpreter']],
  ['image_generation_call', ['image_generation']],
  ['mcp_call', ['mcp']],
  ['shell_call', ['shell']],
]);

/**
 * A provider-executed output item as a {@link ProviderNativeCall}: named
 * after the prompt's matching `NativeTool`, with what it was asked (query,
 * code, action) as arguments and the whole item as the result's value; a
 * `failed` or errored item becomes a failed result naming the provider's error.
 * `output` is the item holding the result when the provider sent it apart
 * (a hosted `shell_call_output`).
 */
export function readNativeCall(
  item: Item,
  tools: readonly ToolDefinition[],
  output?: Item,
): ProviderNativeCall {
  const type = String(item['type']);
  const toolTypes = nativeCallTypes.get(type) ?? [type];
  const tool = findTool(item, tools, toolTypes);
  const name = tool?.name ?? toolTypes[0] ?? type;
  const callId = textOf(item['call_id']) ?? textOf(item['id']) ?? '';
  const status = typeof item['status'] === 'string' ? item['status'] : 'completed';
  const error = item['error'];
  const value = output === undefined ? item : { call: item, output };
  const failed =
    status === 'failed' || status === 'incomplete' || (error !== null && error !== undefined);
  const result = failed
    ? ToolResult.error(
        `${name} (${type}) ${status === 'completed' ? 'failed' : status}` +
          (error === null || error === undefined ? '.' : `: ${describe(error)}`),
      )
    : ToolResult.ok(value, summary(type, item));
  return { callId, name, arguments: argumentsOf(type, item), result };
}

function findTool(
  item: Item,
  tools: readonly ToolDefinition[],
  toolTypes: readonly string[],
): NativeTool | undefined {
  const candidates = tools.filter(
    (tool): tool is NativeTool => tool instanceof NativeTool && toolTypes.includes(tool.type),
  );
  if (item['type'] === 'mcp_call') {
    return candidates.find((tool) => tool.config['server_label'] === item['server_label']);
  }
  return candidates[0];
}

function argumentsOf(type: string, item: Item): unknown {
  switch (type) {
    case 'web_search_call':
    case 'shell_call':
      return item['action'] ?? {};
    case 'file_search_call':
      return { queries: item['queries'] ?? [] };
    case 'code_interpreter_call':
      return { code: item['code'] ?? null, container_id: item['container_id'] ?? null };
    case 'mcp_call':
      return {
        server_label: item['server_label'],
        name: item['name'],
        arguments: item['arguments'],
      };
    case 'image_generation_call':
      return item['revised_prompt'] === undefined ? {} : { revised_prompt: item['revised_prompt'] };
    default:
      return {};
  }
}

/** One line for the model and the audit trail; the full payload is the value. */
function summary(type: string, item: Item): string {
  const action = (item['action'] ?? {}) as Item;
  switch (type) {
    case 'web_search_call': {
      const queries = action['queries'] ?? (action['query'] === undefined ? [] : [action['query']]);
      if (action['type'] === 'open_page') return `Opened ${String(action['url'])}.`;
      if (action['type'] === 'find_in_page') {
        return `Searched ${String(action['url'])} for '${String(action['pattern'])}'.`;
      }
      return `Searched the web for ${listOf(queries)}.`;
    }
    case 'file_search_call':
      return `Searched files for ${listOf(item['queries'])}.`;
    case 'code_interpreter_call':
      return `Ran code in container ${String(item['container_id'])}.`;
    case 'image_generation_call':
      return 'Generated an image.';
    case 'mcp_call':
      return `Called ${String(item['name'])} on MCP server ${String(item['server_label'])}.`;
    case 'shell_call':
      return `Ran ${listOf(action['commands'])} in the provider's container.`;
    default:
      return `The provider ran ${type}.`;
  }
}

function listOf(values: unknown): string {
  const list = Array.isArray(values) ? values.map((value) => `'${String(value)}'`) : [];
  return list.length === 0 ? 'nothing' : list.join(', ');
}

function describe(error: unknown): string {
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const record = error as Item;
    const parts = [record['code'], record['type'], record['message']].filter(
      (part) => typeof part === 'string',
    );
    if (parts.length > 0) return parts.join(': ');
  }
  return JSON.stringify(error);
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
