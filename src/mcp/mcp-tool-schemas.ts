import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';

import {
  ConfigurationError,
  dump,
  type JsonValue,
  type ToolCallOutcome,
  type ToolDefinition,
  ToolValidationError,
} from '../index.js';
import { isPlainObject, outputJsonSchema, parseToolArguments } from '../provider/index.js';

type Schema = Record<string, unknown>;

/** Keywords whose value is one subschema. */
const schemaValues = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames'];
/** Keywords whose value is a list of subschemas. */
const schemaLists = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords whose value is a map of names to subschemas. */
const schemaMaps = ['properties', 'patternProperties', '$defs', 'definitions'];

/**
 * A copy of `schema` where every local `$ref` (`#`, `#/$defs/x`,
 * `#/definitions/x`) carries the `type` of the schema it points at, so a
 * client that reads a property's `type` before resolving references (a form
 * builder such as the MCP Inspector, a converter that refuses a bare `$ref`)
 * still knows what the property holds. In JSON Schema 2020-12 a `type` beside
 * `$ref` applies both, and the two agree, so nothing a client validates
 * changes. @internal
 */
export function typedRefs(schema: Readonly<Schema>): Schema {
  return withTypes(schema, schema, 0) as Schema;
}

function withTypes(node: unknown, root: Readonly<Schema>, depth: number): unknown {
  if (!isPlainObject(node) || depth > 128) return node;
  const copy: Schema = {};
  for (const [keyword, value] of Object.entries(node)) {
    let next: unknown = value;
    if (schemaValues.includes(keyword)) next = withTypes(value, root, depth + 1);
    else if (schemaLists.includes(keyword) && Array.isArray(value)) {
      next = value.map((entry: unknown) => withTypes(entry, root, depth + 1));
    } else if (schemaMaps.includes(keyword) && isPlainObject(value)) {
      const map: Schema = {};
      for (const [name, entry] of Object.entries(value)) {
        Object.defineProperty(map, name, {
          value: withTypes(entry, root, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      next = map;
    }
    Object.defineProperty(copy, keyword, {
      value: next,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const ref = node['$ref'];
  if (typeof ref === 'string' && node['type'] === undefined) {
    const type = targetOf(ref, root)?.['type'];
    if (type !== undefined) copy['type'] = type;
  }
  return copy;
}

function targetOf(ref: string, root: Readonly<Schema>): Readonly<Schema> | undefined {
  if (ref === '#') return root;
  const [, group, name] = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref) ?? [];
  const defs = group === undefined ? undefined : root[group];
  const target = isPlainObject(defs) && name !== undefined ? defs[name] : undefined;
  return isPlainObject(target) ? target : undefined;
}

const outputSchemas = new WeakMap<ToolDefinition, Tool['outputSchema'] | null>();

/**
 * The MCP `outputSchema` of a tool with a declared result class whose fields
 * carry class-validator decorators: the class's JSON Schema for
 * `result: ResultClass`, `{ items: [...] }` around it for `[ResultClass]`
 * (MCP wants an object). `undefined` for a tool without a declared result, or
 * whose result class is plain data without validators (nothing to promise).
 * @internal
 */
export function outputSchemaOf(tool: ToolDefinition): Tool['outputSchema'] | undefined {
  let schema = outputSchemas.get(tool);
  if (schema === undefined) {
    schema = null;
    if (tool.resultType !== undefined) {
      try {
        const written = outputJsonSchema(tool.resultType, tool.resultContainer, 'standard');
        schema = typedRefs(written) as Tool['outputSchema'];
      } catch (error) {
        if (!ConfigurationError.is(error)) throw error;
      }
    }
    outputSchemas.set(tool, schema);
  }
  return schema ?? undefined;
}

/**
 * The MCP result of a successful call of a tool with an `outputSchema`: its
 * value, dumped to JSON and checked against the result class, as
 * `structuredContent` (under `items` for a list result). A value that does not
 * match breaks the promise the schema made, so the call is answered as an
 * error naming the fields at fault, never with content a client would reject.
 * @internal
 */
export async function withStructuredContent(
  tool: ToolDefinition,
  outcome: ToolCallOutcome,
  result: CallToolResult,
): Promise<CallToolResult> {
  const resultType = tool.resultType;
  if (!outcome.result.success || resultType === undefined || outputSchemaOf(tool) === undefined) {
    return result;
  }
  const value: JsonValue | undefined = dump(outcome.result.value);
  const list = tool.resultContainer === 'array';
  const items: readonly unknown[] = list ? (Array.isArray(value) ? value : [value]) : [value];
  const problems: string[] = [];
  if (list && !Array.isArray(value)) problems.push('the value is not a list');
  for (const [index, item] of items.entries()) {
    try {
      await parseToolArguments(resultType, item ?? null, { profile: 'standard' });
    } catch (error) {
      const where = list ? `[${index}] ` : '';
      problems.push(where + (ToolValidationError.is(error) ? error.message : String(error)));
    }
  }
  if (problems.length > 0) {
    const text =
      `Tool '${tool.name}' returned a value that does not match its declared result ` +
      `${resultType.name}: ${problems.slice(0, 5).join('; ')}. ` +
      `Fix: make the handler return a ${resultType.name} that passes its validators.`;
    return { content: [...result.content, { type: 'text', text }], isError: true };
  }
  const structuredContent = (list ? { items: value } : value) as Record<string, unknown>;
  return { ...result, structuredContent };
}
