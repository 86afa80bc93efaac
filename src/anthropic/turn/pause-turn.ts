import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';

import { isBlock, type Block } from './content-block.js';

/** Whether a message stopped with `pause_turn` (a long server-tool turn the API paused). */
export function isPaused(message: unknown): boolean {
  return isBlock(message) && message['stop_reason'] === 'pause_turn';
}

/**
 * One message out of a paused turn and its continuation: the content of
 * both in order, usage added up (each request is billed), everything else
 * from the continuation. `previous` is `undefined` for the first response.
 */
export function mergeMessages(previous: unknown, next: unknown): unknown {
  if (previous === undefined || !isBlock(previous) || !isBlock(next)) return next;
  const merged: Record<string, unknown> = { ...next };
  merged['content'] = [...contentOf(previous), ...contentOf(next)];
  merged['usage'] = addUsage(previous['usage'], next['usage']);
  return merged;
}

/**
 * The body that continues a paused turn, as the API requires: the same
 * request with the assistant's content so far appended as an `assistant`
 * message, which the model then carries on.
 */
export function continuedBody(
  body: MessageCreateParamsNonStreaming,
  merged: unknown,
): MessageCreateParamsNonStreaming {
  const next: Record<string, unknown> = { ...body };
  next['messages'] = [...body.messages, { role: 'assistant', content: contentOf(merged) }];
  return next as unknown as MessageCreateParamsNonStreaming;
}

function contentOf(message: unknown): Block[] {
  return isBlock(message) && Array.isArray(message['content'])
    ? (message['content'] as unknown[]).filter(isBlock)
    : [];
}

function addUsage(a: unknown, b: unknown): unknown {
  if (!isUsage(a) || !isUsage(b)) return b;
  const sum: Record<string, unknown> = { ...b };
  for (const key of [
    'input_tokens',
    'output_tokens',
    'cache_creation_input_tokens',
    'cache_read_input_tokens',
  ]) {
    const left = a[key];
    const right = b[key];
    if (typeof left === 'number' || typeof right === 'number') {
      sum[key] = (typeof left === 'number' ? left : 0) + (typeof right === 'number' ? right : 0);
    }
  }
  return sum;
}

function isUsage(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
