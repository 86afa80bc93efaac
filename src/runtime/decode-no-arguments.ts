import { ToolValidationError } from '../errors/tool-validation-error.js';

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
      throw new ToolValidationError(`Arguments are not valid JSON: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  const empty =
    value === undefined ||
    value === null ||
    (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);
  if (!empty) throw new ToolValidationError('Tool does not accept any arguments.');
}
