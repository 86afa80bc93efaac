import type { LanguageModelV3Message } from '@ai-sdk/provider';

import { isPlainObject } from '../../provider/index.js';

type AssistantContent = Extract<LanguageModelV3Message, { role: 'assistant' }>['content'];

/** The marker of the provider items an {@link AiSdkAdapter} carries into the next request. */
export const ASSISTANT_ITEM_TYPE = 'ai-sdk.assistant-content';

/**
 * One provider item of an AI SDK turn: the assistant's answer as prompt parts
 * (text, reasoning and tool calls with their provider metadata), and the
 * provider that answered, so it goes back only to that provider. Plain JSON:
 * it survives a saved evaluation state.
 */
export interface AssistantItem {
  readonly type: typeof ASSISTANT_ITEM_TYPE;
  readonly provider: string;
  readonly content: AssistantContent;
}

/** The item carrying `content` back to `provider`. */
export function assistantItem(provider: string, content: AssistantContent): AssistantItem {
  return { type: ASSISTANT_ITEM_TYPE, provider, content };
}

/**
 * The prompt parts of the item among `items` that `provider` answered with,
 * keeping of its tool calls only those of `callIds` (the calls the
 * conversation kept), or `undefined` when there is none: a turn of another
 * provider or adapter is sent in neutral form, its provider details dropped.
 */
export function assistantPartsOf(
  items: readonly unknown[],
  provider: string,
  callIds: ReadonlySet<string>,
): AssistantContent | undefined {
  for (const item of items) {
    if (
      isPlainObject(item) &&
      item['type'] === ASSISTANT_ITEM_TYPE &&
      item['provider'] === provider &&
      Array.isArray(item['content'])
    ) {
      return (item['content'] as AssistantContent).filter(
        (part) =>
          part.type !== 'tool-call' ||
          part.providerExecuted === true ||
          callIds.has(part.toolCallId),
      );
    }
  }
  return undefined;
}
