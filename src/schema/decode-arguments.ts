import { describeThrown } from '../core/errors/describe-thrown.js';
import { ToolValidationError } from '../core/errors/tool-validation-error.js';

/** `{` */
const openBrace = 0x7b;

/**
 * A tool call's arguments decoded: JSON text parsed, an already-decoded value
 * as it is, empty text or `undefined` as `{}`. Text that is not JSON throws a
 * `ToolValidationError` (of `paramsType`, when the params are a class). @internal
 */
export function decodeArguments(
  raw: unknown,
  paramsType?: abstract new (...args: never[]) => unknown,
): unknown {
  if (raw === undefined) return {};
  if (typeof raw !== 'string') return raw;
  // Text that opens an object is never blank: the common case skips the trim's scan.
  if (raw.charCodeAt(0) !== openBrace && raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new ToolValidationError(`Arguments are not valid JSON: ${describeThrown(error)}`, {
      ...(paramsType === undefined ? {} : { paramsType }),
      cause: error,
    });
  }
}
