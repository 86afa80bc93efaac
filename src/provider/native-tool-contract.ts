import { PromptValidationError } from '../core/errors/prompt-validation-error.js';
import type { NativeTool } from '../tools/native-tool.js';

/**
 * The JSON type of one field of a provider's native tool: a JSON type name,
 * `string[]` for an array of strings, or a list of the allowed string values.
 */
export type NativeFieldType =
  | 'string'
  | 'boolean'
  | 'integer'
  | 'number'
  | 'object'
  | 'array'
  | 'string[]'
  | 'null'
  | readonly string[];

/**
 * One provider's contract for its native tools: per `NativeTool` type, the
 * fields its `config` may set and the JSON types each accepts (a field that
 * takes several types lists them all). Adapters keep one table per provider,
 * copied from the provider's published API reference.
 */
export type NativeToolContract = Readonly<
  Record<string, Readonly<Record<string, readonly NativeFieldType[]>>>
>;

/**
 * Refuses a `NativeTool` whose `config` sets a field the provider's tool does
 * not have, or gives a field a value of the wrong JSON type. Only the config's
 * own top-level fields are checked; the provider checks nested values.
 * A type without a row in the contract is left to the adapter.
 *
 * @param provider the adapter's name, for the message (`OpenAIAdapter`).
 * @throws PromptValidationError naming the tool, the provider's field and
 * the fields or types it accepts.
 */
export function checkNativeToolConfig(
  provider: string,
  tool: NativeTool,
  contract: NativeToolContract,
): void {
  const fields = contract[tool.type];
  if (fields === undefined) return;
  for (const [field, value] of Object.entries(tool.config)) {
    const types = Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (types === undefined) {
      throw new PromptValidationError(
        `${provider}: native tool '${tool.name}' (${tool.type}) sets config.${field}, which the ` +
          `provider's ${tool.type} tool does not have. Fix: remove it; the fields it takes are ` +
          `${Object.keys(fields).join(', ')}.`,
        { placeholder: tool.name },
      );
    }
    if (!types.some((type) => fits(value, type))) {
      throw new PromptValidationError(
        `${provider}: native tool '${tool.name}' (${tool.type}) sets config.${field} to ` +
          `${describe(value)}, but the provider's field takes ${types.map(name).join(' or ')}. ` +
          `Fix: give config.${field} a value of that type, or remove it.`,
        { placeholder: tool.name },
      );
    }
  }
}

function fits(value: unknown, type: NativeFieldType): boolean {
  if (typeof type !== 'string') return typeof value === 'string' && type.includes(value);
  switch (type) {
    case 'null':
      return value === null;
    case 'string':
    case 'boolean':
    case 'number':
      return typeof value === type && (type !== 'number' || Number.isFinite(value));
    case 'integer':
      return Number.isSafeInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'string[]':
      return Array.isArray(value) && value.every((item) => typeof item === 'string');
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

function name(type: NativeFieldType): string {
  if (typeof type === 'string') return type === 'string[]' ? 'an array of strings' : type;
  return `one of ${type.map((value) => JSON.stringify(value)).join(', ')}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return `${typeof value} ${String(value)}`;
  }
  return typeof value;
}
