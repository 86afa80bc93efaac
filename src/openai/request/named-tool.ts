import { PromptEvaluationError, type ToolDefinition } from '../../index.js';
import { type ToolSpec } from '../../provider/index.js';

/** The offered tool called `name`. @throws PromptEvaluationError naming the offered tools. */
export function namedTool(
  name: string,
  tools: readonly ToolSpec[],
  prompt: string,
): ToolDefinition {
  const tool = tools.find((candidate) => candidate.name === name)?.tool;
  if (tool === undefined) {
    throw new PromptEvaluationError(
      `toolChoice names '${name}', but the prompt offers no such tool ` +
        `(tools: ${tools.map((t) => t.name).join(', ') || 'none'}). Pass one of them, or 'auto'.`,
      { phase: 'request', prompt },
    );
  }
  return tool;
}
