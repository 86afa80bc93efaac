import {
  isPlainObject,
  type JsonSchema,
  normalizeStrictArguments,
  outputJsonSchema,
  type ProviderRequest,
  sanitizeSchemaName,
  toJsonSchema,
} from '../../provider/index.js';

/** The `json_schema` format asked for a prompt's structured output. */
export interface StructuredOutputFormat {
  /** The prompt's name, sanitised (`[A-Za-z0-9_-]`, at most 64 characters). */
  readonly name: string;
  readonly schema: JsonSchema;
  /** `true` when the output class fits strict mode (the `openai-strict` schema is sent). */
  readonly strict: boolean;
}

/** The structured-output format of `output`, or `undefined` for a free-text prompt. */
export function structuredOutputFormat(
  output: ProviderRequest['output'],
  promptName: string,
): StructuredOutputFormat | undefined {
  if (output === undefined) return undefined;
  const strict = toJsonSchema(output.type, 'openai-strict').strictCompatible;
  return {
    name: sanitizeSchemaName(promptName),
    schema: outputJsonSchema(output.type, output.container, strict ? 'openai-strict' : 'standard'),
    strict,
  };
}

/**
 * The JSON answer of a strict structured output, decoded, with the `null`s
 * strict mode forces into optional fields removed (so the output class sees
 * absent fields as absent); `undefined` when the text is not JSON (the
 * runtime then reports what is wrong with it).
 */
export function decodeStrictOutput(
  output: NonNullable<ProviderRequest['output']>,
  text: string,
): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (output.container === 'object') return normalizeStrictArguments(output.type, value);
  if (!isPlainObject(value) || !Array.isArray(value['items'])) return value;
  // A lone spread, then the field: Object.assign would run a `__proto__` key of the model's JSON as a setter.
  const copy: Record<string, unknown> = { ...value };
  copy['items'] = (value['items'] as unknown[]).map((item) =>
    normalizeStrictArguments(output.type, item),
  );
  return copy;
}
