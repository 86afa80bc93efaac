import { type ContentPart, isMediaPart, type MediaPart } from '../../content/content-part.js';
import { Media } from '../../content/media.js';
import { EvaluationStateError } from '../../core/errors/evaluation-state-error.js';
import type { ConversationMessage } from '../../provider/conversation.js';
import { ToolResult } from '../../tools/tool-result.js';
import type { EvaluationScope } from '../scope/evaluation-scope.js';
import { runtimeMedia } from './runtime-media.js';

/**
 * The conversation of a resumed evaluation with every media reference
 * (a part without bytes, as a saved state holds it) replaced by the part
 * rebuilt from the `BlobStore`'s bytes, checked against its hash. Messages
 * without media are kept as they are. @throws EvaluationStateError naming
 * the missing blob. @internal
 */
export async function hydrateConversation(
  scope: EvaluationScope,
  messages: readonly ConversationMessage[],
): Promise<ConversationMessage[]> {
  const out: ConversationMessage[] = [];
  for (const message of messages) {
    if (message.role === 'user' && typeof message.content !== 'string') {
      const content: ContentPart[] = [];
      for (const part of message.content) {
        content.push(isMediaPart(part) ? await hydrate(scope, part) : part);
      }
      out.push({ role: 'user', content });
    } else if (message.role === 'tool' && message.result.parts.some(needsBytes)) {
      const parts: MediaPart[] = [];
      for (const part of message.result.parts) parts.push(await hydrate(scope, part));
      const { result } = message;
      out.push(
        Object.assign({}, message, {
          result: new ToolResult({
            message: result.message,
            value: result.value,
            success: result.success,
            excludeValueFromContext: result.excludeValueFromContext,
            parts,
          }),
        }),
      );
    } else out.push(message);
  }
  return out;
}

function needsBytes(part: MediaPart): boolean {
  return part.bytes === undefined && part.url === undefined;
}

async function hydrate(scope: EvaluationScope, part: MediaPart): Promise<MediaPart> {
  if (!needsBytes(part)) return part;
  const bytes = await runtimeMedia(scope.root).store.get(part.hash);
  const subject = `Resuming evaluation ${scope.evaluationId} of ${scope.prompt.label}`;
  if (bytes === undefined) {
    throw new EvaluationStateError({
      subject,
      problem: `the bytes of the ${part.type} ${part.hash} (${part.mediaType}) are not in the BlobStore.`,
      fix: 'Bind the BlobStore the paused evaluation wrote to (a durable one when another process resumes).',
    });
  }
  const options = { mediaType: part.mediaType, filename: part.filename, maxPixels: Infinity };
  const rebuilt = Media[part.type](bytes, options);
  if (rebuilt.hash !== part.hash) {
    throw new EvaluationStateError({
      subject,
      problem: `the BlobStore holds other bytes under ${part.hash} (they hash to ${rebuilt.hash}).`,
      fix: 'Restore the BlobStore from the same source as the saved state.',
    });
  }
  return rebuilt;
}
