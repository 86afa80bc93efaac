import type { ConversationMessage } from '../../provider/index.js';

/**
 * Whether `messages` goes on from `seen`: the same message objects first,
 * then any new ones. The first message is not compared: the translations
 * that ask are kept by it. @internal
 */
export function continuesConversation(
  messages: readonly ConversationMessage[],
  seen: readonly ConversationMessage[],
): boolean {
  if (messages.length < seen.length) return false;
  for (let index = seen.length - 1; index > 0; index--) {
    if (messages[index] !== seen[index]) return false;
  }
  return true;
}
