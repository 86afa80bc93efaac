import type { ConversationMessage, ProviderTurn } from '../conversation.js';
import type { ProviderRequest } from '../provider-request.js';
import type { FallbackEvent } from './fallback-event.js';

/**
 * How a composite adapter ({@link FallbackAdapter}, {@link RoutingAdapter})
 * keeps a turn's provider items in the neutral conversation: wrapped with the
 * id of the member that produced them, `{ servedBy, items }`. Plain JSON, so
 * an approval pause saves it and a resume reads it back. The envelope has no
 * `type` field: an adapter that meets one without the composite around it
 * (which the runtime's resume check prevents) reads it as no item of its own
 * and rebuilds the turn from its text and calls, as for any foreign item.
 */
export interface ServedItems {
  /** The id of the member adapter whose answer held the items (`openai/gpt-5-mini`). */
  readonly servedBy: string;
  /** The items as that adapter returned them. */
  readonly items: readonly unknown[];
}

/** Whether `value` is a {@link ServedItems} envelope. */
export function isServedItems(value: unknown): value is ServedItems {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof ServedItems, unknown>>;
  return typeof candidate.servedBy === 'string' && Array.isArray(candidate.items);
}

/**
 * `turn` as the composite returns it: its provider items wrapped for member
 * `id`, and the provider and model that served it named (the turn's own when
 * the adapter set them, else the member's `name` and `model`).
 */
export function servedTurn(
  turn: ProviderTurn,
  id: string,
  provider: string,
  model: string | undefined,
): ProviderTurn {
  const items = turn.providerItems;
  return {
    text: turn.text,
    toolCalls: turn.toolCalls,
    nativeCalls: turn.nativeCalls,
    parsed: turn.parsed,
    usage: turn.usage,
    finishReason: turn.finishReason,
    providerItems: items === undefined || items.length === 0 ? items : [{ servedBy: id, items }],
    raw: turn.raw,
    provider: turn.provider ?? provider,
    model: turn.model ?? model,
  };
}

/**
 * `request` as member `id` receives it: every assistant message's wrapped
 * items unwrapped when `id` produced them, left out (and reported to
 * `onEvent` as `items-dropped`) when another member did. Items outside any
 * envelope pass as they are. The request itself is returned when no message
 * carries an envelope.
 */
export function requestFor(
  request: ProviderRequest,
  id: string,
  onEvent: ((event: FallbackEvent) => void) | undefined,
): ProviderRequest {
  const messages = request.messages;
  let first = -1;
  for (let at = 0; at < messages.length; at++) {
    const message = messages[at] as ConversationMessage;
    if (message.role === 'assistant' && message.providerItems.some(isServedItems)) {
      first = at;
      break;
    }
  }
  if (first < 0) return request;
  const translated = messages.slice(0, first);
  for (let at = first; at < messages.length; at++) {
    translated.push(messageFor(messages[at] as ConversationMessage, request.turn, id, onEvent));
  }
  return { ...request, messages: translated };
}

function messageFor(
  message: ConversationMessage,
  turn: number,
  id: string,
  onEvent: ((event: FallbackEvent) => void) | undefined,
): ConversationMessage {
  if (message.role !== 'assistant' || !message.providerItems.some(isServedItems)) return message;
  const items: unknown[] = [];
  for (const item of message.providerItems) {
    if (!isServedItems(item)) items.push(item);
    else if (item.servedBy === id) items.push(...item.items);
    else {
      onEvent?.({
        type: 'items-dropped',
        turn,
        member: id,
        servedBy: item.servedBy,
        count: item.items.length,
        itemTypes: typesOf(item.items),
      });
    }
  }
  return {
    role: 'assistant',
    content: message.content,
    toolCalls: message.toolCalls,
    providerItems: items,
  };
}

function typesOf(items: readonly unknown[]): string[] {
  const types: string[] = [];
  for (const item of items) {
    const type = (item as { type?: unknown } | null)?.type;
    if (typeof type === 'string') types.push(type);
  }
  return types;
}
