import { NativeTool } from '../../index.js';
import type { JsonSchema, ProviderRequest, ToolSpec } from '../../provider/index.js';
import { nativeToolEntry } from './native-tool-entry.js';

/** The `tools` and `tool_choice` of one request. */
export interface MessagesTools {
  readonly tools: Record<string, unknown>[];
  readonly toolChoice: Record<string, unknown> | undefined;
}

/** What {@link messagesTools} needs besides the request. */
export interface ToolsSetup {
  /** `false` sends `disable_parallel_tool_use: true`. */
  readonly parallelToolCalls: boolean;
  /** The forced output tool, in `structuredOutput: 'tool'` mode. */
  readonly outputTool: { readonly name: string; readonly schema: JsonSchema } | undefined;
  /** Extended thinking is on: no forced tool choice (`any` or a named tool). */
  readonly thinking: boolean;
  /** The `cache_control` to put on the last tool, if tools are cached. */
  readonly cacheControl: Record<string, unknown> | undefined;
}

/**
 * The tools of a request: client tools as `{ name, description, input_schema }`
 * (with `strict: true` where the runtime chose the strict schema), native
 * tools as their server tool entries, the output tool last; and the tool
 * choice: `auto` → `{ type: 'auto' }`, `required` → `any`, `none` → `none`,
 * a named tool → `{ type: 'tool', name }`. With an output tool, `auto`
 * becomes `any` so the turn ends in a tool call (unless thinking is on), and
 * `none` forces the output tool: the model may call no tool of the prompt,
 * but it still answers through the output tool (with thinking on, which
 * forbids forcing, the output tool is the only one offered).
 * Without tools no `tool_choice` is sent.
 */
export function messagesTools(request: ProviderRequest, setup: ToolsSetup): MessagesTools {
  const output = setup.outputTool;
  const onlyOutput = request.toolChoice === 'none' && output !== undefined && setup.thinking;
  const tools = onlyOutput ? [] : request.tools.map(toolEntry);
  if (output !== undefined) {
    tools.push({
      name: output.name,
      description: 'Give the final answer. Call it once, alone, when you are done.',
      input_schema: output.schema,
    });
  }
  if (tools.length === 0) return { tools, toolChoice: undefined };
  const last = tools.at(-1);
  if (setup.cacheControl !== undefined && last !== undefined) {
    last['cache_control'] = setup.cacheControl;
  }
  return { tools, toolChoice: toolChoiceOf(request, setup, output?.name) };
}

function toolEntry(spec: ToolSpec): Record<string, unknown> {
  if (spec.tool instanceof NativeTool) return nativeToolEntry(spec.tool);
  const entry: Record<string, unknown> = {
    name: spec.name,
    description: spec.description,
    input_schema: spec.parameters,
  };
  if (spec.strict) entry['strict'] = true;
  return entry;
}

function toolChoiceOf(
  request: ProviderRequest,
  setup: ToolsSetup,
  outputTool: string | undefined,
): Record<string, unknown> {
  const choice = request.toolChoice;
  if (choice === 'none' && outputTool === undefined) return { type: 'none' };
  let type: string;
  let name: string | undefined;
  if (choice === 'none' || typeof choice === 'object') {
    type = setup.thinking ? 'auto' : 'tool';
    name = typeof choice === 'object' ? choice.name : outputTool;
  } else if (choice === 'required' || outputTool !== undefined) {
    type = setup.thinking ? 'auto' : 'any';
  } else {
    type = 'auto';
  }
  const entry: Record<string, unknown> = { type };
  if (type === 'tool' && name !== undefined) entry['name'] = name;
  if (!setup.parallelToolCalls) entry['disable_parallel_tool_use'] = true;
  return entry;
}
