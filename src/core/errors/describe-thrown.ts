import { inspect } from 'node:util';

import { boundText } from './bound-text.js';

/**
 * The most characters of a thrown value's description that reach a message:
 * a handler's 10 MB `Error.message` is cut to this with a visible marker.
 */
export const MAX_DESCRIBED_ERROR_LENGTH = 2_000;

/**
 * Describes anything a handler, reducer or subscriber may throw, for a
 * message: an `Error`'s message (its name when the message is empty), a
 * string as it is, anything else as `util.inspect` shows it. Never throws,
 * whatever the value (a `BigInt`, a cyclic or null-prototype object, a Proxy
 * with throwing traps, an `Error` whose `message` getter throws, a value whose
 * `toString` or `toJSON` throws), and the text is bounded by `max`. @internal
 */
export function describeThrown(value: unknown, max = MAX_DESCRIBED_ERROR_LENGTH): string {
  return boundText(describeUnbounded(value), max);
}

function describeUnbounded(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    if (value instanceof Error) {
      const message: unknown = value.message;
      if (typeof message === 'string' && message !== '') return message;
      const name: unknown = value.name;
      return typeof name === 'string' && name !== '' ? name : 'Error';
    }
  } catch {
    // A hostile Error (throwing getter or Proxy trap): described below without reading it.
  }
  try {
    return inspect(value, {
      depth: 2,
      breakLength: Infinity,
      maxArrayLength: 20,
      maxStringLength: 500,
    });
  } catch {
    return `a thrown ${kindOf(value)} that cannot be described`;
  }
}

function kindOf(value: unknown): string {
  try {
    return value === null ? 'null' : typeof value;
  } catch {
    return 'value';
  }
}
