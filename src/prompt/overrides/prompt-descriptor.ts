import { createHash } from 'node:crypto';

import type { PromptTree } from '../prompt-registry.js';
import type { ToolDefinition } from '../../tools/tool-definition.js';
import { contractSchema } from './contract-schema.js';

/** An overridable section of a prompt and the hash of its original body template. */
export interface SectionDescriptor {
  /** Keys from the root to the section. */
  readonly path: readonly string[];
  /** SHA-256 (hex) of the original body template. */
  readonly contentHash: string;
  /** The section's heading number, e.g. `2.1`. */
  readonly number: string;
}

/** An overridable tool of a prompt and the hash of its contract. */
export interface ToolDescriptor {
  /** Path of the section contributing the tool. */
  readonly path: readonly string[];
  /** The tool's name. */
  readonly name: string;
  /** SHA-256 (hex) over the description, the params schema and the result schema. */
  readonly contractHash: string;
}

/**
 * What overrides of a prompt may target: its overridable sections and tools,
 * each with the hash that an override must match to apply.
 */
export interface PromptDescriptor {
  /** The prompt's namespace. */
  readonly ns: string;
  /** The prompt's key. */
  readonly key: string;
  /** Sections that accept overrides and have a body template. */
  readonly sections: readonly SectionDescriptor[];
  /** Tools that accept overrides. */
  readonly tools: readonly ToolDescriptor[];
}

const cache = new WeakMap<PromptTree, PromptDescriptor>();

/** The descriptor of `prompt` (computed once per prompt). */
export function describePrompt(prompt: PromptTree): PromptDescriptor {
  const cached = cache.get(prompt);
  if (cached !== undefined) return cached;
  const sections: SectionDescriptor[] = [];
  for (const node of prompt.registry.nodes) {
    const template = node.section.bodyTemplate;
    if (!node.section.acceptsOverrides || template === undefined) continue;
    sections.push({ path: node.path, contentHash: sha256(template.source), number: node.number });
  }
  const tools = prompt.registry.tools
    .filter((entry) => entry.tool.acceptsOverrides)
    .map((entry) => ({
      path: entry.path,
      name: entry.tool.name,
      contractHash: toolContractHash(entry.tool),
    }));
  const descriptor = Object.freeze({ ns: prompt.ns, key: prompt.key, sections, tools });
  cache.set(prompt, descriptor);
  return descriptor;
}

/**
 * The contract hash of a tool: SHA-256 of `hash(description)::hash(params schema)::hash(result schema)`,
 * schemas hashed as canonical JSON (sorted keys). Changing any of the three invalidates overrides.
 */
export function toolContractHash(tool: ToolDefinition): string {
  const params = canonicalJson(
    tool.params !== undefined && tool.params.kind !== 'class'
      ? tool.params.jsonSchema('standard').schema
      : contractSchema(tool.paramsType, 'object', 'params'),
  );
  const result = canonicalJson(contractSchema(tool.resultType, tool.resultContainer, 'result'));
  return sha256(`${sha256(tool.description)}::${sha256(params)}::${sha256(result)}`);
}

/** SHA-256 of UTF-8 text, hex. @internal */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** JSON with object keys sorted at every depth. @internal */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    Object.defineProperty(sorted, key, {
      value: sortKeys((value as Record<string, unknown>)[key]),
      enumerable: true,
    });
  }
  return sorted;
}
