import { dump } from '../schema/dump.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { renderToolValue } from '../tools/tool-result.js';

/**
 * The "Tools:" block appended to a section's body when any of its tools has
 * examples: each such tool with its description, then each example's
 * description, input (JSON) and output (as the model would read the result).
 * `''` when no tool has examples.
 * @internal
 */
export function renderToolExamples(tools: readonly ToolDefinition[]): string {
  const withExamples = tools.filter((tool) => tool.examples.length > 0);
  if (withExamples.length === 0) return '';
  const lines = ['Tools:'];
  for (const tool of withExamples) {
    lines.push(`- ${tool.name}: ${tool.description}`, `  - ${tool.name} examples:`);
    for (const example of tool.examples) {
      lines.push(`    - description: ${example.description}`, '      input:');
      lines.push(...fence('json', JSON.stringify(dump(example.input) ?? null)));
      lines.push('      output:');
      lines.push(...fence('', renderToolValue(example.output)));
    }
  }
  return lines.join('\n');
}

function fence(tag: string, body: string): string[] {
  const indent = '        ';
  return [
    `${indent}\`\`\`${tag}`,
    ...body.split('\n').map((line) => indent + line),
    `${indent}\`\`\``,
  ];
}
