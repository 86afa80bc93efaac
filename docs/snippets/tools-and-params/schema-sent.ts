import type { SchemaProfile } from 'affordance/provider';
import { toolSpecOf } from 'affordance/provider';
import type { ToolDefinition } from 'affordance';

// #region sent
/** The JSON Schema an adapter sends for a tool: `strict` picks the OpenAI strict projection when it fits. */
export function schemaSent(tool: ToolDefinition, strict: boolean): Record<string, unknown> {
  return toolSpecOf(tool, strict).parameters;
}

/** What the strict projection of a tool's schema leaves to run-time validation. */
export function leftOut(tool: ToolDefinition, profile: SchemaProfile = 'openai-strict'): string[] {
  return (tool.params?.jsonSchema(profile).unexpressed ?? []).map(
    (gap) => `${gap.path}: ${gap.constraint}`,
  );
}
// #endregion sent
