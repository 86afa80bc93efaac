import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

import { type ConversationMessage } from '../../provider/index.js';
import type { OpenAIInstructionsRole } from '../openai-adapter-options.js';
import { continuesConversation } from './continues-conversation.js';
import { chatContent, checkOpenAIMedia, OPENAI_CHAT_MEDIA } from './openai-media.js';

/** A conversation translated into Chat Completions messages, kept to go on from. */
interface Translation {
  readonly role: OpenAIInstructionsRole;
  /** The messages translated so far, in order. */
  readonly messages: ConversationMessage[];
  readonly result: ChatCompletionMessageParam[];
}

/**
 * The latest translation of each conversation, by its first message: an
 * evaluation replays its conversation on every request, the same message
 * objects with new ones at the end, so each request translates only those.
 */
const translations = new WeakMap<ConversationMessage, Translation>();

/**
 * The conversation as Chat Completions `messages`: the rendered prompt as a
 * `system` (or `developer`) message, the user input, assistant turns with
 * their `tool_calls`, and one `tool` message per call. A conversation that
 * extends the one translated last (same messages first, same role) reuses
 * that translation.
 */
export function chatMessages(
  messages: readonly ConversationMessage[],
  role: OpenAIInstructionsRole,
): ChatCompletionMessageParam[] {
  // OpenAI's published media limits, checked before anything is sent.
  checkOpenAIMedia(OPENAI_CHAT_MEDIA, messages);
  const first = messages[0];
  if (first === undefined) return [];
  let translation = translations.get(first);
  if (translation === undefined || !continues(translation, messages, role)) {
    translation = { role, messages: [], result: [] };
    translations.set(first, translation);
  }
  try {
    for (let index = translation.messages.length; index < messages.length; index++) {
      const message = messages[index] as ConversationMessage;
      const translated = chatMessage(message, role);
      if (translated !== undefined) translation.result.push(translated);
      translation.messages.push(message);
    }
  } catch (error) {
    // A message that failed must not be taken for translated.
    translations.delete(first);
    throw error;
  }
  return translation.result.slice();
}

/** Whether `messages` go on from `translation`: the same role, its messages first. */
function continues(
  translation: Translation,
  messages: readonly ConversationMessage[],
  role: OpenAIInstructionsRole,
): boolean {
  return translation.role === role && continuesConversation(messages, translation.messages);
}

/** One message of the conversation as a Chat Completions message; none for an empty system message. */
function chatMessage(
  message: ConversationMessage,
  role: OpenAIInstructionsRole,
): ChatCompletionMessageParam | undefined {
  switch (message.role) {
    case 'system':
      if (message.content.trim() === '') return undefined;
      return { role: role === 'developer' ? 'developer' : 'system', content: message.content };
    case 'user':
      return typeof message.content === 'string'
        ? { role: 'user', content: message.content }
        : ({ role: 'user', content: chatContent(message.content) } as ChatCompletionMessageParam);
    case 'assistant':
      return message.toolCalls.length === 0
        ? { role: 'assistant', content: message.content ?? '' }
        : {
            role: 'assistant',
            content: message.content === '' ? null : message.content,
            tool_calls: message.toolCalls.map((call) => ({
              id: call.callId,
              type: 'function' as const,
              function: {
                name: call.name,
                arguments:
                  typeof call.arguments === 'string'
                    ? call.arguments
                    : JSON.stringify(call.arguments),
              },
            })),
          };
    case 'tool':
      return { role: 'tool', tool_call_id: message.callId, content: message.content };
  }
}
