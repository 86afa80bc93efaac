import { PromptValidationError } from '../core/errors/prompt-validation-error.js';
import type { DataClass } from '../core/class-type.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import type { PromptSection, SectionRef } from './prompt-section.js';
import { toSection } from './section-from-class.js';

/** One section of a prompt's tree, with its place in it. @internal */
export interface SectionNode {
  readonly section: PromptSection;
  /** 0 for a root section. */
  readonly depth: number;
  /** Keys from the root to this section. */
  readonly path: readonly string[];
  /** Heading number, e.g. `1.2`. */
  readonly number: string;
  /** Index of the first node after this section's subtree. */
  readonly subtreeEnd: number;
}

/** The validated structure of a prompt, built once at construction. @internal */
export interface PromptRegistry {
  /** Every section, depth-first pre-order, enabled or not. */
  readonly nodes: readonly SectionNode[];
  /** Every params class some section declares. */
  readonly paramsTypes: ReadonlySet<DataClass>;
  /** The first default registered for each params class. */
  readonly defaultsByType: ReadonlyMap<DataClass, unknown>;
  /** Every tool with the path of its section. */
  readonly tools: readonly { readonly tool: ToolDefinition; readonly path: readonly string[] }[];
}

/**
 * Walks a prompt's section tree depth-first, numbering every section and
 * checking that sections appear once, sibling keys are unique and tool names
 * are unique across the prompt.
 * @internal
 */
export function buildPromptRegistry(roots: readonly SectionRef[]): PromptRegistry {
  const nodes: SectionNode[] = [];
  const paramsTypes = new Set<DataClass>();
  const defaultsByType = new Map<DataClass, unknown>();
  const tools: { tool: ToolDefinition; path: readonly string[] }[] = [];
  const toolPaths = new Map<string, readonly string[]>();
  const seen = new Set<PromptSection>();

  const visit = (
    refs: readonly SectionRef[],
    parentPath: readonly string[],
    parentNumber: string,
  ): void => {
    const siblingKeys = new Set<string>();
    refs.forEach((ref, index) => {
      const section = toSection(ref);
      const path = [...parentPath, section.key];
      if (seen.has(section)) {
        throw new PromptValidationError(
          `Section '${path.join('.')}' appears more than once in the prompt (or contains itself). ` +
            'Use a separate section instance (or class) for each place.',
          { sectionPath: path, paramsType: section.paramsType },
        );
      }
      if (siblingKeys.has(section.key)) {
        throw new PromptValidationError(
          `Duplicate section key '${section.key}' under '${parentPath.join('.') || '(root)'}'. Sibling sections need distinct keys.`,
          { sectionPath: path, paramsType: section.paramsType, placeholder: section.key },
        );
      }
      seen.add(section);
      siblingKeys.add(section.key);
      const number = parentNumber === '' ? String(index + 1) : `${parentNumber}.${index + 1}`;
      const node = { section, depth: parentPath.length, path, number, subtreeEnd: -1 };
      nodes.push(node);
      if (section.paramsType !== undefined) {
        paramsTypes.add(section.paramsType);
        if (section.defaultParams !== undefined && !defaultsByType.has(section.paramsType)) {
          defaultsByType.set(section.paramsType, section.defaultParams);
        }
      }
      for (const tool of section.tools) {
        const other = toolPaths.get(tool.name);
        if (other !== undefined) {
          throw new PromptValidationError(
            `Duplicate tool name registered for prompt: '${tool.name}' is contributed by section ` +
              `'${other.join('.')}' and by section '${path.join('.')}'. Rename one of the tools.`,
            { sectionPath: path, paramsType: tool.paramsType, placeholder: tool.name },
          );
        }
        toolPaths.set(tool.name, path);
        tools.push({ tool, path });
      }
      visit(section.children, path, number);
      node.subtreeEnd = nodes.length;
    });
  };

  visit(roots, [], '');
  return { nodes, paramsTypes, defaultsByType, tools };
}
