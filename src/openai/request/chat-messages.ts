import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

import { type ConversationMessage } from '../../provider/index.js';
import type { OpenAIInstructionsRole } from '../openai-adapter-options.js';

/**
 * The conversation as Chat Completions `messages`: the rendered prompt as a
 * `system` (or `developer`) message, the user input, assistant turns with
 * their `tool_calls`, and one `tool` message per call.
 */
export function chatMessages(
  messages: readonly ConversationMessage[],
  role: OpenAIInstructionsRole,
): ChatCompletionMessageParam[] {
  const result: ChatCompletionMessageParam[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        if (message.content.trim() === '') break;
        result.push({
          role: role === 'developer' ? 'developer' : 'system',
          content: message.content,
        });
        break;
      case 'user':
        result.push({ role: 'user', content: message.content });
        break;
      case 'assistant':
        result.push(
          message.toolCalls.length === 0
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
              },
        );
        break;
      case 'tool':
        result.push({ role: 'tool', tool_call_id: message.callId, content: message.content });
        break;
    }
  }
  return result;
}
