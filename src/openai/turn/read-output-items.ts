import { NativeTool, type PromptEvaluationError, type ToolDefinition } from '../../index.js';
import { type ProviderNativeCall, type ProviderToolCall } from '../../provider/index.js';
import { ApplyPatchTool } from '../tools/apply-patch-tool.js';
import { nativeCallTypes, readNativeCall } from './read-native-call.js';
import { ShellTool } from '../tools/shell-tool.js';

/** One Responses API output item (or content part), as JSON. @internal */
export type Item = Readonly<Record<string, unknown>>;

/** What the output items of one response add up to, gathered item by item. @internal */
export interface OutputDraft {
  /** Calls the client runs. */
  readonly calls: ProviderToolCall[];
  /** Calls the provider ran, to record. */
  readonly natives: ProviderNativeCall[];
  /** Names of the functions whose arguments `max_output_tokens` cut off. */
  readonly truncated: string[];
  /** What the model said when it refused. */
  readonly refusals: string[];
  /** The text of each message, and whether it is the final answer. */
  readonly texts: { text: string; final: boolean }[];
}

/** What reading an output item needs besides the item. @internal */
export interface OutputScope {
  /** The tools offered. */
  readonly tools: readonly ToolDefinition[];
  /** The response is `incomplete`, so the last call's arguments may be cut off. */
  readonly incomplete: boolean;
  /** The hosted `shell_call_output` items, by `call_id`. */
  readonly shellOutputs: ReadonlyMap<string, Item>;
  /** The error to throw, naming the prompt and the response. */
  readonly fail: (message: string) => PromptEvaluationError;
}

/** Adds what one output item says to the draft, or throws when nobody can answer it. */
type ItemHandler = (item: Item, draft: OutputDraft, scope: OutputScope) => void;

/** Output items that need a client answer this adapter cannot give. */
const unsupported: ReadonlyMap<string, string> = new Map([
  ['custom_tool_call', 'custom (free-form) tools are not offered by this adapter'],
  ['local_shell_call', "the legacy local_shell tool is not offered; use ShellTool ('shell')"],
  ['computer_call', 'computer use is not offered by this adapter'],
  [
    'mcp_approval_request',
    "MCP approval requests are not supported; set require_approval: 'never' in the mcp NativeTool config",
  ],
]);

/**
 * Adds one output item of a response to `draft`: a call to run or record,
 * a message's text and refusals; an item that needs no answer adds nothing.
 * @internal
 */
export function readOutputItem(item: Item, draft: OutputDraft, scope: OutputScope): void {
  itemHandlers.get(String(item['type']))?.(item, draft, scope);
}

/** A message: its text, and any refusal. */
function readMessage(item: Item, draft: OutputDraft): void {
  const parts = Array.isArray(item['content']) ? item['content'].filter(isItem) : [];
  for (const part of parts) {
    if (part['type'] === 'refusal') draft.refusals.push(String(part['refusal']));
  }
  draft.texts.push({
    text: parts
      .filter((part) => part['type'] === 'output_text')
      .map((part) => String(part['text']))
      .join(''),
    final: item['phase'] === 'final_answer',
  });
}

/** A function call to run, noted as truncated when its arguments were cut off. */
function readFunctionCall(item: Item, draft: OutputDraft, scope: OutputScope): void {
  const name = String(item['name']);
  const args = item['arguments'];
  if (scope.incomplete && (item['status'] === 'incomplete' || !parses(args))) {
    draft.truncated.push(name);
  }
  draft.calls.push({ callId: String(item['call_id'] ?? item['id']), name, arguments: args });
}

/** A shell call: run by a `ShellTool`, else recorded as run by a hosted shell. */
function readShellCall(item: Item, draft: OutputDraft, scope: OutputScope): void {
  if (runsOnClient(item, scope.tools)) draft.calls.push(shellCall(item, scope.tools));
  else if (hasNativeShell(scope.tools)) recordNativeCall(item, draft, scope);
  else rejectItem(item, draft, scope);
}

/** An apply_patch call, run by the prompt's `ApplyPatchTool`. */
function readApplyPatchCall(item: Item, draft: OutputDraft, scope: OutputScope): void {
  const tool = scope.tools.find((t) => t instanceof ApplyPatchTool);
  if (tool === undefined) {
    rejectItem(item, draft, scope);
    return;
  }
  draft.calls.push({
    callId: String(item['call_id']),
    name: tool.name,
    arguments: item['operation'],
  });
}

/** A call the provider ran itself, to record. */
function recordNativeCall(item: Item, draft: OutputDraft, scope: OutputScope): void {
  draft.natives.push(
    readNativeCall(item, scope.tools, scope.shellOutputs.get(String(item['call_id']))),
  );
}

/** A call this adapter cannot answer. */
function rejectItem(item: Item, _draft: OutputDraft, scope: OutputScope): never {
  const type = String(item['type']);
  throw scope.fail(
    `The model sent a ${type}, which this adapter cannot answer: ` +
      `${unsupported.get(type) ?? `the prompt offers no ${type.replace('_call', '')} tool`}.`,
  );
}

/** An item that needs no answer: it goes back to the model with the other output items. */
function ignoreItem(): void {
  // Nothing to do.
}

/** What to do with each output item type; a type not listed needs no answer. */
const itemHandlers = buildItemHandlers();

/** The handler of each output item type this adapter knows. */
function buildItemHandlers(): ReadonlyMap<string, ItemHandler> {
  const handlers = new Map<string, ItemHandler>();
  for (const type of nativeCallTypes.keys()) handlers.set(type, recordNativeCall);
  for (const type of unsupported.keys()) handlers.set(type, rejectItem);
  handlers.set('message', readMessage);
  handlers.set('function_call', readFunctionCall);
  handlers.set('reasoning', ignoreItem);
  // A shell_call is a native call type too: it is one only when no ShellTool runs it.
  handlers.set('shell_call', readShellCall);
  handlers.set('apply_patch_call', readApplyPatchCall);
  return handlers;
}

/** A `shell_call` the client runs: a `ShellTool` is offered and the call names no hosted container. */
function runsOnClient(item: Item, tools: readonly ToolDefinition[]): boolean {
  const environment = isItem(item['environment']) ? String(item['environment']['type']) : '';
  return tools.some((tool) => tool instanceof ShellTool) && !environment.startsWith('container');
}

function hasNativeShell(tools: readonly ToolDefinition[]): boolean {
  return tools.some((tool) => tool instanceof NativeTool && tool.type === 'shell');
}

function shellCall(item: Item, tools: readonly ToolDefinition[]): ProviderToolCall {
  const tool = tools.find((t) => t instanceof ShellTool) as ShellTool;
  const action = isItem(item['action']) ? item['action'] : {};
  const args: Record<string, unknown> = { commands: action['commands'] };
  if (typeof action['timeout_ms'] === 'number') args['timeoutMs'] = action['timeout_ms'];
  if (typeof action['max_output_length'] === 'number') {
    args['maxOutputLength'] = action['max_output_length'];
  }
  return { callId: String(item['call_id']), name: tool.name, arguments: args };
}

function parses(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A JSON object (not an array). @internal */
export function isItem(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
