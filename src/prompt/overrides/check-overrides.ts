import { PromptOverridesError } from '../../core/errors/prompt-overrides-error.js';
import type { PromptTree } from '../prompt-registry.js';
import { describePrompt } from './prompt-descriptor.js';
import type { PromptOverride, SkippedOverride } from './prompt-override.js';

/**
 * Splits an override into the entries that apply to `prompt` as it is now and
 * those that do not (stale hash, unknown target, target not accepting overrides).
 * @internal
 */
export function partitionOverride(
  prompt: PromptTree,
  override: PromptOverride,
): { readonly applicable: PromptOverride; readonly skipped: readonly SkippedOverride[] } {
  const descriptor = describePrompt(prompt);
  const sectionHashes = new Map(descriptor.sections.map((s) => [s.path.join('.'), s.contentHash]));
  const toolHashes = new Map(descriptor.tools.map((t) => [t.name, t.contractHash]));
  const allSections = new Set(prompt.registry.nodes.map((node) => node.path.join('.')));
  const allTools = new Set(prompt.registry.tools.map((entry) => entry.tool.name));
  const skipped: SkippedOverride[] = [];
  const sections = override.sections.filter((entry) => {
    const target = entry.path.join('.');
    const hash = sectionHashes.get(target);
    const reason =
      hash === undefined
        ? allSections.has(target)
          ? 'the section does not accept overrides'
          : 'the prompt has no section with this path'
        : hash !== entry.expectedHash
          ? 'the section template changed since the override was written (hash mismatch)'
          : undefined;
    if (reason !== undefined) skipped.push({ kind: 'section', target, reason });
    return reason === undefined;
  });
  const tools = override.tools.filter((entry) => {
    const hash = toolHashes.get(entry.name);
    const reason =
      hash === undefined
        ? allTools.has(entry.name)
          ? 'the tool does not accept overrides'
          : `the prompt has no tool with this name (tools: ${[...allTools].join(', ') || 'none'})`
        : hash !== entry.expectedContractHash
          ? 'the tool contract (description, params or result) changed since the override was written (hash mismatch)'
          : undefined;
    if (reason !== undefined) skipped.push({ kind: 'tool', target: entry.name, reason });
    return reason === undefined;
  });
  return { applicable: { ...override, sections, tools }, skipped };
}

/**
 * Throws unless every entry of `override` applies to `prompt` (used by
 * `Prompt.render`, which never applies a stale override silently). @internal
 */
export function assertOverrideApplies(prompt: PromptTree, override: PromptOverride): void {
  const label = prompt.label;
  if (override.ns !== prompt.ns || override.key !== prompt.key) {
    throw new PromptOverridesError(
      `Overrides for prompt '${override.ns}/${override.key}' were given to prompt '${label}'.`,
      { location: `${override.ns}/${override.key}#${override.tag}` },
    );
  }
  const { skipped } = partitionOverride(prompt, override);
  const first = skipped[0];
  if (first !== undefined) {
    const list = skipped.map((s) => `${s.kind} '${s.target}': ${s.reason}`).join('; ');
    throw new PromptOverridesError(
      `${skipped.length} override entr${skipped.length === 1 ? 'y does' : 'ies do'} not apply to prompt '${label}': ${list}. ` +
        'Resolve overrides through a PromptOverridesStore (it leaves stale entries out and reports them), or re-seed them.',
      { location: `${label}#${override.tag}` },
    );
  }
}
