import type { ToolDefinition } from '../tools/tool-definition.js';

/**
 * What the model is told about one field of a tool's params: its
 * description (from `@Describe`, the schema or prompt overrides), its JSON
 * type, whether it is required, and its default.
 */
export interface ToolParamHint {
  /** The field's description, overrides applied; `undefined` when it has none. */
  readonly description: string | undefined;
  /** The JSON Schema type (`string`, `integer`, `array`, `string|null`...); `undefined` when the schema names none. */
  readonly type: string | undefined;
  /** Whether the model must send the field. */
  readonly required: boolean;
  /** Whether the schema gives a default (then `default` holds it). */
  readonly hasDefault: boolean;
  /** The field's default value in the schema, if `hasDefault`. */
  readonly default?: unknown;
}

type Schema = Readonly<Record<string, unknown>>;

/**
 * Tool name → params field → hint, for `tools`, reading each tool's standard
 * JSON Schema (built once per params declaration) and taking descriptions
 * from `descriptions` (which has prompt overrides applied). @internal
 */
export function toolParamHints(
  tools: readonly ToolDefinition[],
  descriptions: ReadonlyMap<string, ReadonlyMap<string, string>>,
): ReadonlyMap<string, ReadonlyMap<string, ToolParamHint>> {
  const hints = new Map<string, ReadonlyMap<string, ToolParamHint>>();
  for (const tool of tools) {
    if (tool.params === undefined) continue;
    const schema = tool.params.jsonSchema('standard').schema as Schema;
    const properties = (schema['properties'] ?? {}) as Readonly<Record<string, Schema>>;
    const required = new Set((schema['required'] ?? []) as readonly string[]);
    const described = descriptions.get(tool.name);
    const fields = new Map<string, ToolParamHint>();
    for (const [field, property] of Object.entries(properties)) {
      const hasDefault = Object.hasOwn(property, 'default');
      const description =
        described?.get(field) ??
        (typeof property['description'] === 'string' ? property['description'] : undefined);
      fields.set(
        field,
        Object.freeze({
          description,
          type: typeName(property),
          required: required.has(field),
          hasDefault,
          ...(hasDefault ? { default: property['default'] } : {}),
        }),
      );
    }
    hints.set(tool.name, fields);
  }
  return hints;
}

function typeName(schema: Schema): string | undefined {
  const type = schema['type'];
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.join('|');
  const variants = (schema['anyOf'] ?? schema['oneOf']) as readonly Schema[] | undefined;
  if (variants !== undefined) {
    const names = variants.map(typeName);
    return names.every((name) => name !== undefined) ? [...new Set(names)].join('|') : undefined;
  }
  if (typeof schema['$ref'] === 'string') return 'object';
  if ('const' in schema) return typeof schema['const'];
  return undefined;
}
