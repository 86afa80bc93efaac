import type {
  Tool as ResponsesTool,
  ToolChoiceOptions,
} from 'openai/resources/responses/responses';

import { type ToolChoice, type ToolSpec } from '../../provider/index.js';
import { NativeTool } from '../../index.js';
import { ApplyPatchTool } from '../tools/apply-patch-tool.js';
import { namedTool } from './named-tool.js';
import { nativeToolEntry } from './native-tool-entry.js';
import { ShellTool } from '../tools/shell-tool.js';

/** Tool-choice types the Responses API accepts as `{ type }` for a hosted tool. */
const hostedChoiceTypes = new Set(['file_search', 'code_interpreter', 'image_generation']);

/**
 * The Responses `tools[]` of a prompt: function tools with `strict` sent
 * explicitly, native tools as their hosted entries, `ShellTool` and
 * `ApplyPatchTool` as `shell` and `apply_patch`.
 */
export function responsesTools(specs: readonly ToolSpec[]): ResponsesTool[] {
  return specs.map((spec): ResponsesTool => {
    const tool = spec.tool;
    if (tool instanceof NativeTool) return nativeToolEntry(tool) as unknown as ResponsesTool;
    if (tool instanceof ShellTool) {
      return (
        tool.environment === undefined
          ? { type: 'shell' }
          : { type: 'shell', environment: tool.environment }
      ) as ResponsesTool;
    }
    if (tool instanceof ApplyPatchTool) return { type: 'apply_patch' };
    return {
      type: 'function',
      name: spec.name,
      description: spec.description,
      parameters: spec.parameters,
      strict: spec.strict,
    };
  });
}

/**
 * The Responses `tool_choice`: `auto`, `required` and `none` as they are; a
 * named tool as `{ type: 'function', name }`, or the hosted tool's own form.
 *
 * @throws PromptEvaluationError when the named tool is not offered.
 */
export function responsesToolChoice(
  choice: ToolChoice,
  tools: readonly ToolSpec[],
  prompt: string,
): unknown {
  if (typeof choice === 'string') return choice satisfies ToolChoiceOptions;
  const tool = namedTool(choice.name, tools, prompt);
  if (tool instanceof ShellTool) return { type: 'shell' };
  if (tool instanceof ApplyPatchTool) return { type: 'apply_patch' };
  if (tool instanceof NativeTool) {
    const type = tool.type as string;
    if (hostedChoiceTypes.has(type)) return { type };
    return { type: 'allowed_tools', mode: 'required', tools: [{ type }] };
  }
  return { type: 'function', name: tool.name };
}
