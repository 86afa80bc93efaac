import type { ConversationMessage, ProviderToolCall } from '../../provider/index.js';
import { isBlock, type Block } from '../turn/content-block.js';
import { mediaBlock, userBlocks } from './anthropic-media.js';

/** One `messages[]` entry as sent. */
export interface MessageEntry {
  readonly role: 'user' | 'assistant';
  content: string | Block[];
}

/** The `system` text and `messages` of a conversation. */
export interface MessagesConversation {
  /** The system prompts, joined by a blank line; `undefined` when there are none. */
  readonly system: string | undefined;
  readonly messages: MessageEntry[];
}

/**
 * The conversation as the Messages API takes it: `system` messages become
 * the top-level `system` text; an assistant turn is sent as the content
 * blocks the API returned for it (thinking, redacted thinking, server tool
 * blocks and signatures unchanged), rebuilt from its text and tool calls
 * only when it has none; consecutive tool results go into one `user`
 * message as `tool_result` blocks (`is_error: true` for failed results), and
 * any message following them joins that `user` message. An evaluation without
 * input starts with a user message saying to follow the system prompt, since
 * the API wants a user message first.
 */
export function messagesConversation(
  conversation: readonly ConversationMessage[],
): MessagesConversation {
  const systems: string[] = [];
  const messages: MessageEntry[] = [];
  for (const message of conversation) {
    switch (message.role) {
      case 'system':
        systems.push(message.content);
        break;
      case 'user':
        append(messages, 'user', userBlocks(message.content));
        break;
      case 'assistant':
        messages.push({ role: 'assistant', content: assistantContent(message) });
        break;
      case 'tool':
        append(messages, 'user', [
          {
            type: 'tool_result',
            tool_use_id: message.callId,
            // Images and documents a tool returned follow its text inside the tool_result.
            content:
              message.result.parts.length === 0
                ? message.content
                : [
                    { type: 'text', text: message.content },
                    ...message.result.parts.map(mediaBlock),
                  ],
            is_error: !message.result.success,
          },
        ]);
        break;
    }
  }
  if (messages[0]?.role !== 'user') {
    // The API wants a user message first; an evaluation without input has none.
    messages.unshift({ role: 'user', content: [{ type: 'text', text: noInputText }] });
  }
  return { system: systems.length === 0 ? undefined : systems.join('\n\n'), messages };
}

/** The first user message of an evaluation run without `input`. */
export const noInputText = 'Follow the instructions of the system prompt.';

/** Adds blocks to the last message when it has the same role, else as a new message. */
function append(messages: MessageEntry[], role: 'user' | 'assistant', blocks: Block[]): void {
  const last = messages.at(-1);
  if (last?.role !== role) {
    messages.push({ role, content: blocks });
    return;
  }
  const content =
    typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
  last.content = [...content, ...blocks];
}

type AssistantMessage = Extract<ConversationMessage, { role: 'assistant' }>;

/**
 * The blocks of an assistant turn: the provider's own blocks when the turn
 * carries them (minus `tool_use` blocks the runtime did not run, such as the
 * forced output tool), else text and `tool_use` blocks rebuilt.
 */
function assistantContent(message: AssistantMessage): Block[] {
  const items = message.providerItems;
  if (items.length > 0 && items.every(isBlock)) {
    const ran = new Set(message.toolCalls.map((call) => call.callId));
    return items.filter((block) => block['type'] !== 'tool_use' || ran.has(String(block['id'])));
  }
  const blocks: Block[] = [];
  if (message.content !== null && message.content !== '') {
    blocks.push({ type: 'text', text: message.content });
  }
  for (const call of message.toolCalls) blocks.push(toolUse(call));
  return blocks;
}

function toolUse(call: ProviderToolCall): Block {
  let input: unknown = call.arguments;
  if (typeof input === 'string') {
    try {
      input = input.trim() === '' ? {} : JSON.parse(input);
    } catch {
      input = {};
    }
  }
  return { type: 'tool_use', id: call.callId, name: call.name, input };
}
