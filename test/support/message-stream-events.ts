import type { Json } from './recording-replay.js';

/** The word-sized pieces `text` is streamed in (each word with the spaces after it). */
export const wordPieces = (text: string): string[] =>
  (text.match(/\S+\s*|\s+/g) ?? []).filter((piece) => piece !== '');

/**
 * The server-sent events the Responses API streams for `response`, a whole
 * body whose output items are all assistant messages: `response.created` and
 * `response.in_progress` (no output, no usage yet), then per message its item
 * and content part openings, its text as word-sized `response.output_text.delta`
 * events and the matching `.done` events, and last `response.completed`
 * carrying `response` unchanged. Each entry is the `data` text of one event.
 */
export function messageStreamEvents(response: Json): string[] {
  const pending = { ...response, status: 'in_progress', output: [], usage: null };
  const events: Json[] = [
    { type: 'response.created', response: pending },
    { type: 'response.in_progress', response: pending },
  ];
  const output = Array.isArray(response['output']) ? (response['output'] as Json[]) : [];
  output.forEach((item, outputIndex) => {
    if (item['type'] !== 'message') {
      throw new Error(`messageStreamEvents streams messages only, got a ${String(item['type'])}`);
    }
    const itemId = item['id'];
    const at = { item_id: itemId, output_index: outputIndex };
    events.push({
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { ...item, status: 'in_progress', content: [] },
    });
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
  });
  events.push({ type: 'response.completed', response });
  return events.map((event, index) => JSON.stringify({ ...event, sequence_number: index }));
}
