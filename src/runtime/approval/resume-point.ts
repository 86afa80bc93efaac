import type { ContentPart } from '../../content/content-part.js';
import type {
  ConversationMessage,
  ProviderToolCall,
  ToolChoice,
} from '../../provider/conversation.js';
import { TokenUsage } from '../../provider/token-usage.js';
import type { Session } from '../../session/session.js';
import { ToolResult } from '../../tools/tool-result.js';
import { ToolInvoked } from '../events/tool-invoked.js';
import type { ToolCallOutcome } from '../tool-call-outcome.js';
import type { ApprovalDecision } from './approval-decision.js';
import type { EvaluationState, SavedMessage } from './evaluation-state.js';

/** Where a resumed evaluation picks up: the paused turn's remaining calls, and what came before. @internal */
export interface ResumePoint {
  readonly messages: readonly ConversationMessage[];
  /** The calls recorded before the pause (from the session's `ToolInvoked` log). */
  readonly toolCalls: readonly ToolCallOutcome[];
  readonly usage: TokenUsage | undefined;
  readonly toolChoice: ToolChoice;
  readonly elapsedMs: number;
  readonly turn: number;
  readonly remaining: readonly ProviderToolCall[];
  readonly decisions: ReadonlyMap<string, ApprovalDecision>;
}

/** The resume point of a checked state, with the calls `session` recorded for it. @internal */
export function resumePoint(
  state: EvaluationState,
  decisions: ReadonlyMap<string, ApprovalDecision>,
  session: Session,
): ResumePoint {
  const messages = state.messages.map(conversationMessage);
  const usage = state.usage;
  return {
    messages,
    toolCalls: recordedCalls(state.evaluationId, messages, session),
    usage:
      usage === null
        ? undefined
        : new TokenUsage({
            inputTokens: usage.inputTokens ?? undefined,
            outputTokens: usage.outputTokens ?? undefined,
            cachedTokens: usage.cachedTokens ?? undefined,
            cacheWriteTokens: usage.cacheWriteTokens ?? undefined,
            reasoningTokens: usage.reasoningTokens ?? undefined,
          }),
    toolChoice: state.toolChoice,
    elapsedMs: state.elapsedMs,
    turn: state.turn,
    remaining: state.remaining,
    decisions,
  };
}

/**
 * A saved message as the conversation holds it; media stays by reference
 * (parts without bytes) until the resumed run loads the bytes from the
 * `BlobStore` (`hydrateConversation`).
 */
function conversationMessage(message: SavedMessage): ConversationMessage {
  if (message.role === 'user') {
    return typeof message.content === 'string'
      ? { role: 'user', content: message.content }
      : { role: 'user', content: message.content as readonly ContentPart[] };
  }
  if (message.role !== 'tool') return message;
  return {
    role: 'tool',
    callId: message.callId,
    name: message.name,
    content: message.content,
    result: new ToolResult({
      message: message.result.message,
      value: message.result.value,
      success: message.result.success,
      excludeValueFromContext: message.result.excludeValueFromContext,
      parts: message.result.parts,
    }),
  };
}

/**
 * The outcomes of the calls the evaluation made before it paused, rebuilt from
 * the session's `ToolInvoked` records (the model's message from the saved
 * conversation, which holds what the provider read).
 */
function recordedCalls(
  evaluationId: string,
  messages: readonly ConversationMessage[],
  session: Session,
): ToolCallOutcome[] {
  const read = new Map<string, string>();
  for (const message of messages) {
    if (message.role === 'tool') read.set(message.callId, message.content);
  }
  return session.view
    .slice(ToolInvoked)
    .where((event) => event.evaluationId === evaluationId)
    .map((event) => ({
      call: { callId: event.callId ?? '', name: event.name, arguments: event.rawArguments },
      result: event.result,
      message: read.get(event.callId ?? '') ?? event.renderedMessage,
      event,
    }));
}
