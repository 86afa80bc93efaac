import { wordPieces } from './message-stream-events.js';
import type { Json } from './recording-replay.js';

/** How many characters of a call's arguments each `response.function_call_arguments.delta` carries. */
const ARGUMENT_PIECE = 8;

/** The events of one output item: a message's text in word pieces, a function call's arguments in pieces. */
function itemEvents(item: Json, outputIndex: number): Json[] {
  const at = { item_id: item['id'], output_index: outputIndex };
  if (item['type'] === 'function_call') {
    const args = String(item['arguments']);
    return [
      {
        type: 'response.output_item.added',
        output_index: outputIndex,
        item: { ...item, arguments: '', status: 'in_progress' },
      },
      ...(args.match(new RegExp(`[\\s\\S]{1,${ARGUMENT_PIECE}}`, 'g')) ?? []).map((delta) => ({
        type: 'response.function_call_arguments.delta',
        ...at,
        delta,
      })),
      { type: 'response.function_call_arguments.done', ...at, arguments: args },
      { type: 'response.output_item.done', output_index: outputIndex, item },
    ];
  }
  if (item['type'] !== 'message') {
    throw new Error(
      `responsesStreamEvents streams messages and function calls, got a ${String(item['type'])}`,
    );
  }
  const events: Json[] = [
    {
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { ...item, status: 'in_progress', content: [] },
    },
  ];
  (item['content'] as Json[]).forEach((part, contentIndex) => {
    const text = String(part['text']);
    const where = { ...at, content_index: contentIndex };
    events.push({ type: 'response.content_part.added', ...where, part: { ...part, text: '' } });
    for (const delta of wordPieces(text)) {
      events.push({ type: 'response.output_text.delta', ...where, delta, logprobs: [] });
    }
    events.push({ type: 'response.output_text.done', ...where, text, logprobs: [] });
    events.push({ type: 'response.content_part.done', ...where, part });
  });
  events.push({ type: 'response.output_item.done', output_index: outputIndex, item });
  return events;
}

/**
 * The server-sent events the Responses API streams for `response`, a whole
 * body whose output items are assistant messages and function calls:
 * `response.created` and `response.in_progress` (no output, no usage yet),
 * then per item its opening, its text as word-sized
 * `response.output_text.delta` events or its arguments as
 * `response.function_call_arguments.delta` pieces, the matching `.done`
 * events, and last `response.completed` carrying `response` unchanged. Each
 * entry is the `data` text of one event.
 */
export function responsesStreamEvents(response: Json): string[] {
  const pending = { ...response, status: 'in_progress', output: [], usage: null };
  const output = Array.isArray(response['output']) ? (response['output'] as Json[]) : [];
  const events: Json[] = [
    { type: 'response.created', response: pending },
    { type: 'response.in_progress', response: pending },
    ...output.flatMap((item, outputIndex) => itemEvents(item, outputIndex)),
    { type: 'response.completed', response },
  ];
  return events.map((event, index) => JSON.stringify({ ...event, sequence_number: index }));
}
