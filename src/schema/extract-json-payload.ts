import { findJsonValue } from './find-json-value.js';

/** What {@link extractJsonPayload} found in an assistant message. @internal */
export type JsonPayloadSearch =
  | { readonly kind: 'found'; readonly value: unknown }
  | { readonly kind: 'invalid-fence'; readonly error: unknown }
  | { readonly kind: 'none' };

/** An opening fence tagged `json` (any case), not `json5` or `jsonc`. */
const jsonFence = /```[ \t]*json(?![\w-])/i;
const fence = '```';

/**
 * Finds the JSON payload of an assistant message, trying in order: the first
 * fenced code block tagged `json`, the whole trimmed text, then the first
 * `{` or `[` anywhere from which an object or array decodes. A `json` block
 * that does not decode is reported rather than skipped. @internal
 */
export function extractJsonPayload(text: string): JsonPayloadSearch {
  const opening = jsonFence.exec(text);
  if (opening !== null) {
    const bodyStart = opening.index + opening[0].length;
    const closing = text.indexOf(fence, bodyStart);
    // An unclosed block (a truncated reply) is no block; the later steps may still find JSON.
    if (closing >= 0) {
      try {
        return {
          kind: 'found',
          value: JSON.parse(text.slice(bodyStart, closing)) as unknown,
        };
      } catch (error) {
        return { kind: 'invalid-fence', error };
      }
    }
  }
  const trimmed = text.trim();
  if (trimmed !== '') {
    try {
      return { kind: 'found', value: JSON.parse(trimmed) as unknown };
    } catch {
      // Not JSON as a whole: look for an object or array inside it.
    }
  }
  const span = findJsonValue(text);
  return span === undefined ? { kind: 'none' } : { kind: 'found', value: span.value };
}
