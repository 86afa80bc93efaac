import {
  isPlainObject,
  type JsonSchema,
  normalizeStrictArguments,
  outputJsonSchema,
  type ProviderRequest,
  toJsonSchema,
} from '../../provider/index.js';

/** The schema of a prompt's structured output, and whether it is the strict profile. */
export interface OutputSchema {
  readonly schema: JsonSchema;
  /** `true` when the output class fits the strict profile and that schema is sent. */
  readonly strict: boolean;
}

/**
 * The schema sent for structured output (in `output_config.format` or as the
 * output tool's `input_schema`): the `openai-strict` profile when the class
 * fits it (every field required, optional ones nullable, `additionalProperties:
 * false`, no keyword constrained decoding rejects), otherwise the standard
 * draft 2020-12 schema; a list output is wrapped in `{ items: [...] }`.
 */
export function outputSchema(output: NonNullable<ProviderRequest['output']>): OutputSchema {
  const strict = toJsonSchema(output.type, 'openai-strict').strictCompatible;
  return {
    schema: outputJsonSchema(output.type, output.container, strict ? 'openai-strict' : 'standard'),
    strict,
  };
}

/**
 * A structured answer decoded from the value the model produced: the `null`s
 * the strict profile forces into optional fields become absent again, and a
 * list output is unwrapped by the runtime from `{ items }`.
 */
export function normalizeOutput(
  output: NonNullable<ProviderRequest['output']>,
  value: unknown,
  strict: boolean,
): unknown {
  if (!strict) return value;
  if (output.container === 'object') return normalizeStrictArguments(output.type, value);
  if (!isPlainObject(value) || !Array.isArray(value['items'])) return value;
  // A lone spread, then the field: the model's JSON may hold a `__proto__` key.
  const copy: Record<string, unknown> = { ...value };
  copy['items'] = (value['items'] as unknown[]).map((item) =>
    normalizeStrictArguments(output.type, item),
  );
  return copy;
}

/** The JSON text decoded, or `undefined` when it is not JSON (the runtime then says what is wrong). */
export function decodeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
