import { PromptEvaluationError } from '../core/errors/prompt-evaluation-error.js';
import type { ToolDefinition } from '../tools/tool-definition.js';

/** The offered tool called `name`. @throws PromptEvaluationError naming the offered tools. */
export function namedTool(
  name: string,
  tools: readonly ToolDefinition[],
  prompt: string,
): ToolDefinition {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) {
    throw new PromptEvaluationError(
      `toolChoice names '${name}', but the prompt offers no such tool ` +
        `(tools: ${tools.map((t) => t.name).join(', ') || 'none'}). Pass one of them, or 'auto'.`,
      { phase: 'request', prompt },
    );
  }
  return tool;
}
