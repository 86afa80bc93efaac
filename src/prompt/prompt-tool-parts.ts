import type { ToolDefinition } from '../tools/tool-definition.js';
import type { PolicyRef } from '../tools/tool-policy.js';
import type { PromptOverride } from './overrides/prompt-override.js';
import type { SectionNode } from './prompt-registry.js';
import { ToolPolicies } from './tool-policies.js';

/**
 * What a render offers besides its text, derived from the enabled sections,
 * their tools and the overrides alone: the final tools, their parameter
 * descriptions and policies, and the tools by name. @internal
 */
export interface PromptToolParts {
  /** The enabled sections it was built from, in render order. */
  readonly enabled: readonly SectionNode[];
  /** Their tools as the sections gave them, before overrides. */
  readonly sectionTools: readonly ToolDefinition[];
  readonly overrides: PromptOverride | undefined;
  readonly tools: readonly ToolDefinition[];
  readonly toolParamDescriptions: ReadonlyMap<string, ReadonlyMap<string, string>>;
  readonly policies: ReadonlyMap<string, readonly PolicyRef[]>;
  readonly toolsByName: ReadonlyMap<string, ToolDefinition>;
}

/**
 * The tool parts of a render of `enabled` with `overrides`: `previous` itself
 * when it was built from the same sections, the same tools (by identity) and
 * the same overrides object, so renders that offer the same tools share one
 * set of maps instead of building them again (a render per evaluation would
 * otherwise rebuild a map per tool). @internal
 */
export function promptToolParts(
  previous: PromptToolParts | undefined,
  promptPolicies: readonly PolicyRef[],
  enabled: readonly SectionNode[],
  overrides: PromptOverride | undefined,
  synthetic?: readonly ToolDefinition[],
): PromptToolParts {
  const sectionTools: ToolDefinition[] = [];
  for (const node of enabled) sectionTools.push(...node.section.tools);
  // The tools that open summarized sections come last (see `disclosureTools`).
  if (synthetic !== undefined) sectionTools.push(...synthetic);
  if (
    previous !== undefined &&
    previous.overrides === overrides &&
    sameItems(previous.enabled, enabled) &&
    sameItems(previous.sectionTools, sectionTools)
  ) {
    return previous;
  }
  const policies = new ToolPolicies(promptPolicies);
  for (const node of enabled) policies.enter(node);
  const { finalTools, descriptions } = applyToolOverrides(sectionTools, overrides);
  return {
    enabled,
    sectionTools,
    overrides,
    tools: Object.freeze(finalTools),
    toolParamDescriptions: descriptions,
    policies: policies.byTool,
    toolsByName: new Map(finalTools.map((tool) => [tool.name, tool])),
  };
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

function applyToolOverrides(
  tools: readonly ToolDefinition[],
  override: PromptOverride | undefined,
): {
  finalTools: ToolDefinition[];
  descriptions: ReadonlyMap<string, ReadonlyMap<string, string>>;
} {
  const byName = new Map((override?.tools ?? []).map((entry) => [entry.name, entry]));
  const descriptions = new Map<string, ReadonlyMap<string, string>>();
  const finalTools = tools.map((tool) => {
    const fields = new Map(tool.params?.fieldDescriptions());
    const entry = byName.get(tool.name);
    let result = tool;
    if (entry !== undefined) {
      for (const [field, text] of Object.entries(entry.paramDescriptions ?? {}))
        fields.set(field, text);
      if (entry.description !== undefined && entry.description !== tool.description) {
        result = tool.withDescription(entry.description);
      }
    }
    if (fields.size > 0) descriptions.set(tool.name, fields);
    return result;
  });
  return { finalTools, descriptions };
}
