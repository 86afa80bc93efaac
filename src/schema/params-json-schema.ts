import type { JsonValue } from './dump.js';

/**
 * Which JSON Schema dialect {@link toJsonSchema} writes: `standard` is plain
 * JSON Schema draft 2020-12; `openai-strict` follows OpenAI's strict mode
 * (every property required, optional ones nullable, only supported keywords).
 */
export type SchemaProfile = 'standard' | 'openai-strict';

/** A JSON Schema document or subschema, as plain frozen JSON data. */
export type JsonSchema = Readonly<Record<string, JsonValue>>;

/**
 * Something a schema does not say about a params class: a constraint the
 * parser enforces that the schema leaves out, or a reason the class cannot be
 * sent with OpenAI `strict: true`.
 */
export interface SchemaGap {
  /** Field path: `address.zip`; `items[]` for every item of an array; `''` for the class. */
  readonly path: string;
  /** The class-validator constraint (`maxLength`, `isUrl`, a custom validator's name) or `type`. */
  readonly constraint: string;
  /** Why it is missing, in one sentence. */
  readonly reason: string;
}

/** What {@link toJsonSchema} returns: the schema and an honest account of what it leaves out. */
export interface ParamsJsonSchema {
  readonly profile: SchemaProfile;
  /** `{ type: 'object', properties, required, additionalProperties: false, $defs? }`. */
  readonly schema: JsonSchema;
  /** Constraints `parseToolArguments` enforces that this schema does not show the model. */
  readonly unexpressed: readonly SchemaGap[];
  /** Why the class cannot be sent with `strict: true` (the same for both profiles). */
  readonly strictBlockers: readonly SchemaGap[];
  /** Whether the `openai-strict` schema of this class may be sent with `strict: true`. */
  readonly strictCompatible: boolean;
}
