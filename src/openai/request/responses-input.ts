import type { ResponseInputItem } from 'openai/resources/responses/responses';

import { type ConversationMessage, type ProviderRequest } from '../../provider/index.js';
import { type ToolResult } from '../../index.js';
import { ApplyPatchTool } from '../tools/apply-patch-tool.js';
import type { OpenAIInstructionsRole } from '../openai-adapter-options.js';
import { ShellTool } from '../tools/shell-tool.js';

/** The `instructions` and `input` of a Responses request. */
export interface ResponsesInput {
  readonly instructions: string | undefined;
  readonly input: ResponseInputItem[];
}

type Item = Record<string, unknown>;
type ToolMessage = Extract<ConversationMessage, { role: 'tool' }>;

/**
 * The input items already built for a message, with the tool list they were
 * built against. A conversation is replayed whole on every turn, and its
 * messages are the same objects from turn to turn: each is translated once.
 */
const replayed = new WeakMap<
  ConversationMessage,
  { readonly tools: ProviderRequest['tools']; readonly items: readonly Item[] }
>();

/** `build(message)`, or the items built for it before against the same tools. */
function itemsOf<M extends ConversationMessage>(
  message: M,
  tools: ProviderRequest['tools'],
  build: (message: M) => Item[],
): readonly Item[] {
  const known = replayed.get(message);
  if (known?.tools === tools) return known.items;
  const items = build(message);
  replayed.set(message, { tools, items });
  return items;
}

/**
 * Turns the conversation into Responses input: the rendered prompt as
 * `instructions` (or a system/developer message), the user input, each
 * assistant turn as the output items the provider returned (reasoning items
 * included, so reasoning carries across turns), and each tool message as the
 * output item its tool needs (`function_call_output`, `shell_call_output`,
 * `apply_patch_call_output`).
 */
export function responsesInput(
  request: ProviderRequest,
  role: OpenAIInstructionsRole,
): ResponsesInput {
  let instructions: string | undefined;
  const input: Item[] = [];
  const calls = new Map<string, Item>();
  for (const [index, message] of request.messages.entries()) {
    switch (message.role) {
      case 'system':
        if (message.content.trim() === '') break;
        if (index === 0 && role === 'instructions') instructions = message.content;
        else input.push(textMessage(role === 'instructions' ? 'system' : role, message.content));
        break;
      case 'user':
        input.push(textMessage('user', message.content));
        break;
      case 'assistant':
        for (const item of itemsOf(message, request.tools, assistantItems)) {
          if (typeof item['call_id'] === 'string') calls.set(item['call_id'], item);
          input.push(item);
        }
        break;
      case 'tool': {
        const call = calls.get(message.callId);
        const [output] = itemsOf(message, request.tools, (tool) => [
          toolOutput(request, tool, call),
        ]);
        if (output !== undefined) input.push(output);
        break;
      }
    }
  }
  return { instructions, input: input as unknown as ResponseInputItem[] };
}

function textMessage(role: string, content: string): Item {
  return { type: 'message', role, content };
}

/** The provider's own output items when the turn carries them, else items rebuilt from the calls. */
function assistantItems(message: Extract<ConversationMessage, { role: 'assistant' }>): Item[] {
  const items = message.providerItems.filter(isResponsesItem);
  if (items.length > 0 && items.length === message.providerItems.length) {
    return items.map(replayItem);
  }
  const rebuilt: Item[] = [];
  if (message.content !== null && message.content !== '') {
    rebuilt.push(textMessage('assistant', message.content));
  }
  for (const call of message.toolCalls) {
    rebuilt.push({
      type: 'function_call',
      call_id: call.callId,
      name: call.name,
      arguments:
        typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    });
  }
  return rebuilt;
}

function isResponsesItem(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && typeof (value as Item)['type'] === 'string';
}

/** An output item as input: text parts get the `annotations`/`logprobs` arrays the input schema requires. */
function replayItem(item: Item): Item {
  if (item['type'] !== 'message' || !Array.isArray(item['content'])) return item;
  const content = (item['content'] as unknown[]).map((part) => {
    if (!isResponsesItem(part) || part['type'] !== 'output_text') return part;
    // Lone spreads, then the fields: Object.assign would run a `__proto__` key of the provider's JSON as a setter.
    const text: Record<string, unknown> = { ...part };
    text['annotations'] = part['annotations'] ?? [];
    text['logprobs'] = part['logprobs'] ?? [];
    return text;
  });
  const replayed: Record<string, unknown> = { ...item };
  replayed['content'] = content;
  return replayed;
}

function toolOutput(request: ProviderRequest, message: ToolMessage, call: Item | undefined): Item {
  const tool = request.tools.find((spec) => spec.name === message.name)?.tool;
  if (tool instanceof ShellTool && call?.['type'] === 'shell_call') {
    const limit = (call['action'] as Item | undefined)?.['max_output_length'];
    const max = typeof limit === 'number' ? limit : undefined;
    return {
      type: 'shell_call_output',
      call_id: message.callId,
      output: shellOutput(message.result, message.content, max),
      ...(max === undefined ? {} : { max_output_length: max }),
    };
  }
  if (tool instanceof ApplyPatchTool && call?.['type'] === 'apply_patch_call') {
    return {
      type: 'apply_patch_call_output',
      call_id: message.callId,
      status: message.result.success ? 'completed' : 'failed',
      output: message.content,
    };
  }
  return { type: 'function_call_output', call_id: message.callId, output: message.content };
}

function shellOutput(result: ToolResult, text: string, max: number | undefined): Item[] {
  const cut = (value: unknown): string => {
    const out = typeof value === 'string' ? value : '';
    return max === undefined ? out : out.slice(0, max);
  };
  if (!result.success || !Array.isArray(result.value)) {
    return [{ stdout: '', stderr: cut(text), outcome: { type: 'exit', exit_code: 1 } }];
  }
  return (result.value as unknown[]).map((entry) => {
    const command = (entry ?? {}) as Item;
    const exitCode = command['exitCode'];
    return {
      stdout: cut(command['stdout']),
      stderr: cut(command['stderr']),
      outcome:
        exitCode === null
          ? { type: 'timeout' }
          : { type: 'exit', exit_code: typeof exitCode === 'number' ? exitCode : 0 },
    };
  });
}
