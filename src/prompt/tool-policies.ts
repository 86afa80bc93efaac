import type { ToolDefinition } from '../tools/tool-definition.js';
import type { PolicyRef } from '../tools/tool-policy.js';
import type { SectionNode } from './prompt-registry.js';

/**
 * Collects, while a prompt renders, the policies each tool's calls are checked
 * against: the tool's own, then those of its section and the sections above
 * it (innermost first), then the prompt's. Tools with none are left out, so a
 * prompt without policies costs one empty map. @internal
 */
export class ToolPolicies {
  /** The collected policies by tool name. */
  readonly byTool = new Map<string, readonly PolicyRef[]>();
  readonly #prompt: readonly PolicyRef[];
  /** The policies of the enabled sections on the path to the current node, outermost first. */
  readonly #path: (readonly PolicyRef[])[] = [];

  constructor(promptPolicies: readonly PolicyRef[]) {
    this.#prompt = promptPolicies;
  }

  /** Visits an enabled section (depth-first order) and records its tools' policies. */
  enter(node: SectionNode): void {
    this.#path.length = node.depth;
    this.#path.push(node.section.policies);
    for (const tool of node.section.tools) this.#add(tool);
  }

  #add(tool: ToolDefinition): void {
    const found: PolicyRef[] = [...tool.policies];
    for (let depth = this.#path.length - 1; depth >= 0; depth -= 1) {
      found.push(...(this.#path[depth] ?? []));
    }
    found.push(...this.#prompt);
    if (found.length > 0) this.byTool.set(tool.name, Object.freeze(found));
  }
}
