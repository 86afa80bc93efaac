import { PromptValidationError } from '../core/errors/prompt-validation-error.js';
import type { DataClass } from '../core/class-type.js';
import type { StandardSchemaV1 } from '../schema/standard-schema.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import type { PromptSection, SectionRef } from './prompt-section.js';
import { toSection } from './section-from-class.js';

/** One section of a prompt's tree, with its place in it. */
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

/**
 * What the prompt's own helpers (overrides, descriptors) read of a prompt:
 * its identity and its section tree. `Prompt` is one.
 */
export interface PromptTree {
  /** The namespace. */
  readonly ns: string;
  /** The key. */
  readonly key: string;
  /** `ns/key`. */
  readonly label: string;
  /** The section tree. */
  readonly registry: PromptRegistry;
}

/** The validated structure of a prompt, built once at construction. */
export interface PromptRegistry {
  /** Every section, depth-first pre-order, enabled or not. */
  readonly nodes: readonly SectionNode[];
  /** Every params class some section declares. */
  readonly paramsTypes: ReadonlySet<DataClass>;
  /** Every params Standard Schema some section declares. */
  readonly paramsSchemas: ReadonlySet<StandardSchemaV1>;
  /** The first default registered for each params class or schema. */
  readonly defaultsByType: ReadonlyMap<DataClass | StandardSchemaV1, unknown>;
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
  const builder = new RegistryBuilder();
  builder.visit(roots, [], '');
  const { nodes, paramsTypes, paramsSchemas, defaultsByType, tools } = builder;
  return { nodes, paramsTypes, paramsSchemas, defaultsByType, tools };
}

/** A {@link PromptRegistry} being built, section by section. */
class RegistryBuilder {
  readonly nodes: SectionNode[] = [];
  readonly paramsTypes = new Set<DataClass>();
  readonly paramsSchemas = new Set<StandardSchemaV1>();
  readonly defaultsByType = new Map<DataClass | StandardSchemaV1, unknown>();
  readonly tools: { tool: ToolDefinition; path: readonly string[] }[] = [];
  readonly #toolPaths = new Map<string, readonly string[]>();
  readonly #seen = new Set<PromptSection>();

  /** Adds the sections `refs`, children of the section at `parentPath`, in order. */
  visit(refs: readonly SectionRef[], parentPath: readonly string[], parentNumber: string): void {
    const siblingKeys = new Set<string>();
    refs.forEach((ref, index) => {
      const section = toSection(ref);
      const path = [...parentPath, section.key];
      this.#checkPlace(section, path, parentPath, siblingKeys);
      this.#seen.add(section);
      siblingKeys.add(section.key);
      const number = parentNumber === '' ? String(index + 1) : `${parentNumber}.${index + 1}`;
      const node = { section, depth: parentPath.length, path, number, subtreeEnd: -1 };
      this.nodes.push(node);
      this.#addParams(section);
      this.#addTools(section, path);
      this.visit(section.children, path, number);
      node.subtreeEnd = this.nodes.length;
    });
  }

  /** Refuses a section already in the tree, or one whose key a sibling already has. */
  #checkPlace(
    section: PromptSection,
    path: readonly string[],
    parentPath: readonly string[],
    siblingKeys: ReadonlySet<string>,
  ): void {
    if (this.#seen.has(section)) {
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
  }

  /** Notes the section's params class or schema, and its default if it is the first for it. */
  #addParams(section: PromptSection): void {
    const declared = section.paramsType ?? section.paramsSchema;
    if (declared === undefined) return;
    if (section.paramsType !== undefined) this.paramsTypes.add(section.paramsType);
    if (section.paramsSchema !== undefined) this.paramsSchemas.add(section.paramsSchema);
    if (section.defaultParams !== undefined && !this.defaultsByType.has(declared)) {
      this.defaultsByType.set(declared, section.defaultParams);
    }
  }

  /** Adds the section's tools, refusing a name another section's tool already has. */
  #addTools(section: PromptSection, path: readonly string[]): void {
    for (const tool of section.tools) {
      const other = this.#toolPaths.get(tool.name);
      if (other !== undefined) {
        throw new PromptValidationError(
          `Duplicate tool name registered for prompt: '${tool.name}' is contributed by section ` +
            `'${other.join('.')}' and by section '${path.join('.')}'. Rename one of the tools.`,
          { sectionPath: path, paramsType: tool.paramsType, placeholder: tool.name },
        );
      }
      this.#toolPaths.set(tool.name, path);
      this.tools.push({ tool, path });
    }
  }
}
