import type { ResponseInputItem } from 'openai/resources/responses/responses';

import { type ConversationMessage, type ProviderRequest } from '../../provider/index.js';
import { type ToolResult } from '../../index.js';
import { ApplyPatchTool } from '../tools/apply-patch-tool.js';
import type { OpenAIInstructionsRole } from '../openai-adapter-options.js';
import { ShellTool } from '../tools/shell-tool.js';
import { continuesConversation } from './continues-conversation.js';
import { responsesContent, responsesPart } from './openai-media.js';

/** The `instructions` and `input` of a Responses request. */
export interface ResponsesInput {
  readonly instructions: string | undefined;
  readonly input: ResponseInputItem[];
}

type Item = Record<string, unknown>;
type ToolMessage = Extract<ConversationMessage, { role: 'tool' }>;

/**
 * A conversation translated into Responses input, kept to go on from: an
 * evaluation replays its conversation on every request, the same message
 * objects with new ones at the end, so each request translates only the new
 * messages.
 */
interface Translation {
  /** The tool list the items were built against (a tool output depends on its tool). */
  readonly tools: ProviderRequest['tools'];
  readonly role: OpenAIInstructionsRole;
  /** The messages translated so far, in order. */
  readonly messages: ConversationMessage[];
  readonly input: Item[];
  /** The call items so far, by `call_id`, for the tool outputs that answer them. */
  readonly calls: Map<string, Item>;
  instructions: string | undefined;
}

/** The latest translation of each conversation, by its first message. */
const translations = new WeakMap<ConversationMessage, Translation>();

/**
 * Turns the conversation into Responses input: the rendered prompt as
 * `instructions` (or a system/developer message), the user input, each
 * assistant turn as the output items the provider returned (reasoning items
 * included, so reasoning carries across turns), and each tool message as the
 * output item its tool needs (`function_call_output`, `shell_call_output`,
 * `apply_patch_call_output`). A conversation that extends the one translated
 * last (same first message, same messages before the new ones, same tools)
 * reuses that translation.
 */
export function responsesInput(
  request: ProviderRequest,
  role: OpenAIInstructionsRole,
): ResponsesInput {
  const messages = request.messages;
  const first = messages[0];
  if (first === undefined) return { instructions: undefined, input: [] };
  let translation = translations.get(first);
  if (translation === undefined || !continues(translation, request, role)) {
    translation = {
      tools: request.tools,
      role,
      messages: [],
      input: [],
      calls: new Map(),
      instructions: undefined,
    };
    translations.set(first, translation);
  }
  try {
    for (let index = translation.messages.length; index < messages.length; index++) {
      const message = messages[index] as ConversationMessage;
      translate(translation, message, index, request);
      translation.messages.push(message);
    }
  } catch (error) {
    // A message that failed half-way must not be taken for translated.
    translations.delete(first);
    throw error;
  }
  return {
    instructions: translation.instructions,
    input: translation.input.slice() as unknown as ResponseInputItem[],
  };
}

/** Whether `request` goes on from `translation`: the same tools and role, its messages first. */
function continues(
  translation: Translation,
  request: ProviderRequest,
  role: OpenAIInstructionsRole,
): boolean {
  if (translation.tools !== request.tools || translation.role !== role) return false;
  return continuesConversation(request.messages, translation.messages);
}

/** Adds the input items of `message`, at `index` in the conversation, to `translation`. */
function translate(
  translation: Translation,
  message: ConversationMessage,
  index: number,
  request: ProviderRequest,
): void {
  const role = translation.role;
  const input = translation.input;
  switch (message.role) {
    case 'system':
      if (message.content.trim() === '') break;
      if (index === 0 && role === 'instructions') translation.instructions = message.content;
      else input.push(textMessage(role === 'instructions' ? 'system' : role, message.content));
      break;
    case 'user':
      input.push(
        typeof message.content === 'string'
          ? textMessage('user', message.content)
          : { type: 'message', role: 'user', content: responsesContent(message.content) },
      );
      break;
    case 'assistant':
      for (const item of assistantItems(message)) {
        if (typeof item['call_id'] === 'string') translation.calls.set(item['call_id'], item);
        input.push(item);
      }
      break;
    case 'tool':
      input.push(toolOutput(request, message, translation.calls.get(message.callId)));
      break;
  }
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
  const parts = message.result.parts;
  if (parts.length === 0) {
    return { type: 'function_call_output', call_id: message.callId, output: message.content };
  }
  // A function output can carry input_image / input_file parts after its text.
  return {
    type: 'function_call_output',
    call_id: message.callId,
    output: [{ type: 'input_text', text: message.content }, ...parts.map(responsesPart)],
  };
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
