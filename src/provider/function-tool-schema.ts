import type { JsonValue } from '../schema/dump.js';
import type { JsonSchema } from '../schema/params-json-schema.js';
import type { ToolDefinition } from '../tools/tool-definition.js';

/** The `parameters` and `strict` of one OpenAI function tool. */
export interface FunctionToolSchema {
  /** The JSON Schema of the tool's params. */
  readonly parameters: JsonSchema;
  /** Whether the tool is sent with `strict: true` (its arguments then follow the `openai-strict` profile). */
  readonly strict: boolean;
}

const noParameters: JsonSchema = Object.freeze({
  type: 'object',
  properties: Object.freeze({}),
  required: Object.freeze([]) as unknown as JsonValue,
  additionalProperties: false,
});

/**
 * The schema an OpenAI adapter sends for `tool`: the `openai-strict` schema
 * with `strict: true` when the params class fits strict mode and `strictTools`
 * is on, otherwise the standard schema with `strict: false`; a Standard Schema
 * params tool the same way, from its library's JSON Schema. Field
 * descriptions from prompt overrides (`descriptions`) replace the class's own.
 */
export function functionToolSchema(
  tool: ToolDefinition,
  strictTools: boolean,
  descriptions?: ReadonlyMap<string, string>,
): FunctionToolSchema {
  const params = tool.params;
  if (params === undefined) return { parameters: noParameters, strict: strictTools };
  const strictSchema = params.jsonSchema('openai-strict');
  const strict = strictTools && strictSchema.strictCompatible;
  const schema = strict ? strictSchema.schema : params.jsonSchema('standard').schema;
  return { parameters: withDescriptions(schema, descriptions), strict };
}

/** A copy of `schema` whose top-level properties carry `descriptions` (unchanged when they already do). */
function withDescriptions(
  schema: JsonSchema,
  descriptions: ReadonlyMap<string, string> | undefined,
): JsonSchema {
  const properties = schema['properties'];
  if (descriptions === undefined || !isObject(properties)) return schema;
  let changed: Record<string, JsonValue> | undefined;
  for (const [field, text] of descriptions) {
    const property = properties[field];
    if (!isObject(property) || property['description'] === text) continue;
    changed ??= { ...properties };
    changed[field] = { ...property, description: text };
  }
  return changed === undefined ? schema : { ...schema, properties: changed };
}

function isObject(value: JsonValue | undefined): value is Readonly<Record<string, JsonValue>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
