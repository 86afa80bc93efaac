import type { JsonSchema } from '../schema/params-json-schema.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { functionToolSchema } from './function-tool-schema.js';

/**
 * One tool as a request offers it: the definition, and the schema the runtime
 * chose for it. The runtime reads the model's arguments with the same choice
 * (`strict` arguments follow the `openai-strict` profile), so an adapter sends
 * `parameters` and `strict` as they are.
 */
export interface ToolSpec {
  /** The tool (a `NativeTool` or a provider-specific subclass is recognised by `instanceof`). */
  readonly tool: ToolDefinition;
  /** The name the model calls it by. */
  readonly name: string;
  /** The description the model reads (prompt overrides applied). */
  readonly description: string;
  /** The JSON Schema of the params, field descriptions from prompt overrides applied. */
  readonly parameters: JsonSchema;
  /** Whether the schema is sent strict; its arguments then follow the `openai-strict` profile. */
  readonly strict: boolean;
}

/**
 * The {@link ToolSpec} of `tool`: strict when `strictTools` is on and the
 * params class fits strict mode, with the field `descriptions` of prompt
 * overrides.
 */
export function toolSpecOf(
  tool: ToolDefinition,
  strictTools: boolean,
  descriptions?: ReadonlyMap<string, string>,
): ToolSpec {
  const { parameters, strict } = functionToolSchema(tool, strictTools, descriptions);
  return Object.freeze({
    tool,
    name: tool.name,
    description: tool.description,
    parameters,
    strict,
  });
}
