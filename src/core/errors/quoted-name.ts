import { boundText } from './bound-text.js';
import { describeThrown } from './describe-thrown.js';

/** The most characters of a model-supplied name quoted back in a message. */
const MAX_QUOTED_NAME_LENGTH = 100;

/**
 * A name a model or a client supplied (a tool name, a header value), quoted
 * for a message in single quotes and cut at 100 characters with a visible
 * `… [N more characters cut]` marker, so a hostile name never makes the
 * message it appears in unbounded (docs/guide/guarantees.md).
 */
export function quotedName(name: unknown): string {
  const text = typeof name === 'string' ? name : describeThrown(name);
  return `'${boundText(text, MAX_QUOTED_NAME_LENGTH)}'`;
}
