import { describeThrown } from '../core/errors/describe-thrown.js';
import { ToolValidationError } from '../core/errors/tool-validation-error.js';
import { isPlainObject } from './plain-object.js';

/**
 * Checks the arguments of a tool that takes none: nothing, `''`, `'{}'` or `{}`.
 * @throws ToolValidationError "Tool does not accept any arguments." (or the JSON problem).
 * @internal
 */
export function decodeNoArguments(raw: unknown): void {
  let value = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new ToolValidationError(`Arguments are not valid JSON: ${describeThrown(error)}`, {
        cause: error,
      });
    }
  }
  let empty: boolean;
  try {
    empty =
      value === undefined ||
      value === null ||
      (isPlainObject(value) && Object.keys(value).length === 0);
  } catch (error) {
    throw new ToolValidationError(`Arguments could not be read: ${describeThrown(error)}`, {
      cause: error,
    });
  }
  if (!empty) throw new ToolValidationError('Tool does not accept any arguments.');
}
