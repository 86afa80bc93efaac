import { mediaParts, type MediaPart, type MessageContent } from '../../content/content-part.js';
import { Media } from '../../content/media.js';
import type { ConversationMessage } from '../../provider/conversation.js';
import type { EvaluationScope } from '../scope/evaluation-scope.js';
import { fetchAllowedMedia } from './fetch-media.js';
import { storeMedia } from './store-media.js';

/**
 * Fetches the input's URL parts the runtime's `fetchMedia` allows, checks its
 * media against the runtime's limits and stores its bytes in the `BlobStore`
 * before `PromptRendered` refers to them. Resolves the input as sent. @internal
 */
export async function storeInputMedia(
  scope: EvaluationScope,
  input: MessageContent | undefined,
): Promise<MessageContent | undefined> {
  if (input === undefined || typeof input === 'string') return input;
  const fetched = await fetchAllowedMedia(scope, input);
  await storeMedia(scope.root, scope, mediaParts(fetched), `The input of ${scope.prompt.label}`);
  return fetched;
}

/**
 * The note that introduces media a tool returned when the provider takes no
 * media in a tool result: the parts follow it in a user message.
 */
export function toolMediaNote(name: string, callId: string, count: number): string {
  const what = count === 1 ? 'the attachment' : `the ${count} attachments`;
  return `[The result of tool call ${name} (${callId}) comes with ${what} below; this provider takes no media in a tool result.]`;
}

/**
 * The user message that shows the model the media of the last batch of tool
 * results (the tool messages after the last assistant message), each group
 * introduced by {@link toolMediaNote}; `undefined` when they carry none. @internal
 */
export function toolMediaMessage(
  messages: readonly ConversationMessage[],
): ConversationMessage | undefined {
  const content: (ReturnType<typeof Media.text> | MediaPart)[] = [];
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as ConversationMessage;
    if (message.role !== 'tool') break;
    const parts = message.result.parts;
    if (parts.length > 0) {
      content.unshift(
        Media.text(toolMediaNote(message.name, message.callId, parts.length)),
        ...parts,
      );
    }
  }
  return content.length === 0 ? undefined : { role: 'user', content };
}
