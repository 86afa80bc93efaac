import { isMediaPart, type MessageContent } from '../index.js';
import type { ConversationMessage, ProviderTurn } from '../provider/index.js';

/** One part of a message in the conventions' JSON shape. */
type MessagePart =
  | { readonly type: 'text'; readonly content: string }
  | {
      readonly type: 'tool_call';
      readonly id: string;
      readonly name: string;
      readonly arguments: unknown;
    }
  | { readonly type: 'tool_call_response'; readonly id: string; readonly result: string }
  | {
      readonly type: 'blob' | 'uri';
      readonly modality: string;
      readonly mime_type: string;
      readonly uri?: string;
      readonly size: number;
      readonly hash: string;
    };

/** One message in the conventions' JSON shape. */
interface Message {
  readonly role: string;
  readonly parts: readonly MessagePart[];
  readonly finish_reason?: string;
}

/**
 * A user message's parts: text as it is, media by reference (its hash and
 * size, or its URL), never the bytes.
 */
function userParts(content: MessageContent): MessagePart[] {
  if (typeof content === 'string') return [{ type: 'text', content }];
  return content.map((part): MessagePart => {
    if (!isMediaPart(part)) return { type: 'text', content: part.text };
    const modality = part.type === 'file' ? 'document' : part.type;
    return part.url === undefined
      ? { type: 'blob', modality, mime_type: part.mediaType, size: part.size, hash: part.hash }
      : {
          type: 'uri',
          modality,
          mime_type: part.mediaType,
          uri: part.url,
          size: part.size,
          hash: part.hash,
        };
  });
}

/** `gen_ai.system_instructions`: the rendered prompt as one text part (JSON text). @internal */
export function systemInstructions(text: string): string {
  return safeJson([{ type: 'text', content: text }]);
}

/** `gen_ai.input.messages` of an evaluation: its user message (JSON text). @internal */
export function userInput(input: string): string {
  return safeJson([{ role: 'user', parts: [{ type: 'text', content: input }] }]);
}

/**
 * `gen_ai.input.messages` of one request: the conversation after the rendered
 * prompt (which is `gen_ai.system_instructions`), as JSON text. @internal
 */
export function inputMessages(messages: readonly ConversationMessage[]): string {
  const out: Message[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', parts: userParts(message.content) });
        break;
      case 'assistant': {
        const parts: MessagePart[] = [];
        if (message.content !== null) parts.push({ type: 'text', content: message.content });
        for (const call of message.toolCalls) parts.push(toolCallPart(call));
        out.push({ role: 'assistant', parts });
        break;
      }
      case 'tool':
        out.push({
          role: 'tool',
          parts: [{ type: 'tool_call_response', id: message.callId, result: message.content }],
        });
        break;
      case 'system':
        // The rendered prompt: recorded as gen_ai.system_instructions.
        break;
    }
  }
  return safeJson(out);
}

/** `gen_ai.output.messages` of one answer: its text and tool calls, with why it ended (JSON text). @internal */
export function outputMessages(answer: ProviderTurn): string {
  const parts: MessagePart[] = [];
  if (typeof answer.text === 'string') parts.push({ type: 'text', content: answer.text });
  for (const call of answer.toolCalls ?? []) parts.push(toolCallPart(call));
  const message: Message =
    answer.finishReason === undefined
      ? { role: 'assistant', parts }
      : { role: 'assistant', parts, finish_reason: answer.finishReason };
  return safeJson([message]);
}

/** `gen_ai.output.messages` of a finished evaluation: its text, or its structured output as JSON. @internal */
export function finalAnswer(text: string | null, output: unknown): string {
  const content = text ?? safeJson(output ?? null);
  return safeJson([
    { role: 'assistant', parts: [{ type: 'text', content }], finish_reason: 'stop' },
  ]);
}

/** Tool arguments as text: as the provider sent them, or as JSON. @internal */
export function argumentsText(args: unknown): string {
  return typeof args === 'string' ? args : safeJson(args);
}

/** `value` as JSON text, or a marker when it cannot be serialised (a cycle, a BigInt). */
function safeJson(value: unknown): string {
  try {
    // JSON.stringify returns undefined (not text) for these.
    const kind = typeof value;
    if (kind === 'undefined' || kind === 'function' || kind === 'symbol') return 'null';
    return JSON.stringify(value);
  } catch {
    return '"[not serialisable]"';
  }
}

function toolCallPart(call: { callId: string; name: string; arguments: unknown }): MessagePart {
  return { type: 'tool_call', id: call.callId, name: call.name, arguments: call.arguments };
}
