import type {
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultPart,
} from '@ai-sdk/provider';

import type { ConversationMessage, ProviderToolCall } from '../../provider/index.js';
import { assistantPartsOf } from '../turn/assistant-item.js';
import { toolOutput, userParts } from './ai-sdk-media.js';

type AssistantContent = Extract<LanguageModelV3Message, { role: 'assistant' }>['content'];

/**
 * The neutral conversation as an AI SDK prompt: system and user messages as
 * they are, each assistant message with its text and tool calls (or, when it
 * came from a model of the same provider, the parts that model answered with,
 * so provider metadata such as Gemini's thought signatures goes back), and
 * consecutive tool results in one `tool` message.
 */
export function aiSdkPrompt(
  messages: readonly ConversationMessage[],
  provider: string,
): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content });
        break;
      case 'user':
        prompt.push({ role: 'user', content: userParts(message.content) });
        break;
      case 'assistant': {
        const kept = assistantPartsOf(
          message.providerItems,
          provider,
          new Set(message.toolCalls.map((call) => call.callId)),
        );
        const content: AssistantContent =
          kept === undefined || !hasEveryCall(kept, message.toolCalls)
            ? neutralParts(message.content, message.toolCalls)
            : kept;
        prompt.push({ role: 'assistant', content });
        break;
      }
      case 'tool': {
        const part: LanguageModelV3ToolResultPart = {
          type: 'tool-result',
          toolCallId: message.callId,
          toolName: message.name,
          output: toolOutput(message.content, message.result.parts),
        };
        const last = prompt.at(-1);
        if (last?.role === 'tool') last.content.push(part);
        else prompt.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return prompt;
}

/** Whether `parts` carry every call of `calls` (otherwise the neutral form is sent). */
function hasEveryCall(parts: AssistantContent, calls: readonly ProviderToolCall[]): boolean {
  const ids = new Set(parts.map((part) => (part.type === 'tool-call' ? part.toolCallId : '')));
  return calls.every((call) => ids.has(call.callId));
}

/** An assistant message's parts from its neutral form alone. */
function neutralParts(text: string | null, calls: readonly ProviderToolCall[]): AssistantContent {
  const content: AssistantContent = [];
  if (text !== null && text !== '') content.push({ type: 'text', text });
  for (const call of calls) {
    content.push({
      type: 'tool-call',
      toolCallId: call.callId,
      toolName: call.name,
      input: toolInput(call.arguments),
    });
  }
  return content;
}

/** A call's arguments as the decoded value a prompt carries (text that is not JSON stays text). */
export function toolInput(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? {};
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}
