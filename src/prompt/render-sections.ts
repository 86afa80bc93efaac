import { PromptRenderError } from '../core/errors/prompt-render-error.js';
import { PromptValidationError } from '../core/errors/prompt-validation-error.js';
import type { Session } from '../session/session.js';
import type { PromptOverride, SectionOverride } from './overrides/prompt-override.js';
import type { SectionNode } from './prompt-registry.js';
import { renderToolExamples } from './render-tool-examples.js';
import type { SectionVisibility } from './section-visibility.js';

/** A section rendered as its summary: what opening it gives (`RenderedPrompt.summarizedSections`). */
export interface SummarizedSection {
  /** The dotted path. */
  readonly path: string;
  /** Whether the section or its subtree has tools (opened with `open_sections`, else read with `read_section`). */
  readonly hasTools: boolean;
  /** The section and its subtree rendered in full (summarized descendants stay summaries). */
  readonly text: () => string;
}

/** What one render of the prompt's sections needs. @internal */
export interface SectionsRender {
  readonly nodes: readonly SectionNode[];
  readonly params: (node: SectionNode) => unknown;
  readonly session: Session | undefined;
  readonly overrides: ReadonlyMap<string, SectionOverride>;
  /** Visibility by dotted path, over what the sections declare. */
  readonly visibility: ReadonlyMap<string, SectionVisibility> | undefined;
  /** Whether the subtree of the node at this index has a tool. */
  readonly hasTools: (index: number) => boolean;
}

/** The sections rendered: their texts, the sections shown in full, and the summarized ones. @internal */
export interface RenderedSections {
  readonly texts: string[];
  readonly enabled: SectionNode[];
  readonly summarized: SummarizedSection[];
}

/**
 * Renders the nodes from `start` to `end` (a subtree, or the whole tree):
 * disabled sections are dropped with their subtree; a summarized one renders
 * its summary and drops its subtree and tools, unless it is `opened`.
 * @throws PromptValidationError for a section summarized without a summary.
 * @internal
 */
export function renderSections(
  render: SectionsRender,
  start: number,
  end: number,
  opened?: number,
): RenderedSections {
  const out: RenderedSections = { texts: [], enabled: [], summarized: [] };
  let skipUntil = start;
  for (let index = start; index < end; index += 1) {
    if (index < skipUntil) continue;
    const node = render.nodes[index] as SectionNode;
    const params = render.params(node);
    if (!isEnabled(node, params, render.session)) {
      skipUntil = node.subtreeEnd;
      continue;
    }
    const path = node.path.join('.');
    const visibility = render.visibility?.get(path) ?? node.section.visibility;
    if (visibility === 'summary' && index !== opened) {
      const hasTools = render.hasTools(index);
      out.texts.push(renderSummary(node, hasTools));
      out.summarized.push({
        path,
        hasTools,
        text: () => renderSections(render, index, node.subtreeEnd, index).texts.join('\n\n'),
      });
      skipUntil = node.subtreeEnd;
      continue;
    }
    out.texts.push(renderNode(node, params, render.overrides.get(path)));
    out.enabled.push(node);
  }
  return out;
}

/** The heading of a section: `## 1. Title (path)`, one more `#` per level. */
function heading(node: SectionNode): string {
  return `${'#'.repeat(node.depth + 2)} ${node.number}. ${node.section.title} (${node.path.join('.')})`;
}

/** A summarized section: heading, summary, and how to open it. */
function renderSummary(node: SectionNode, hasTools: boolean): string {
  const { summary } = node.section;
  const path = node.path.join('.');
  if (summary === undefined) {
    throw new PromptValidationError(
      `Section '${path}' is rendered as a summary but has no summary. Give the section \`summary: '...'\`, or remove the override that summarizes it.`,
      { sectionPath: node.path, paramsType: node.section.paramsType, placeholder: 'summary' },
    );
  }
  const how = hasTools
    ? `call \`open_sections\` with sectionKeys ["${path}"]`
    : `call \`read_section\` with sectionKey "${path}"`;
  return `${heading(node)}\n\n${summary}\n\n[This section is summarized. To view its full content, ${how}.]`;
}

function isEnabled(node: SectionNode, params: unknown, session: Session | undefined): boolean {
  const predicate = node.section.enabled;
  if (predicate === undefined) return true;
  try {
    return predicate(params, { session });
  } catch (cause) {
    throw new PromptRenderError(
      `Section enabled predicate failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      { sectionPath: node.path, paramsType: node.section.paramsType, cause },
    );
  }
}

function renderNode(
  node: SectionNode,
  params: unknown,
  override: SectionOverride | undefined,
): string {
  const { section } = node;
  let body: string;
  try {
    body =
      override === undefined
        ? section.renderBody(params)
        : section.renderOverride(override.body, params);
  } catch (error) {
    if (error instanceof PromptRenderError || error instanceof PromptValidationError) {
      const Kind = error instanceof PromptRenderError ? PromptRenderError : PromptValidationError;
      throw new Kind(stripSubject(error.message), {
        sectionPath: node.path,
        paramsType: error.paramsType,
        placeholder: error.placeholder,
        cause: error.cause,
      });
    }
    throw new PromptRenderError(
      `Section body failed to render: ${error instanceof Error ? error.message : String(error)}`,
      { sectionPath: node.path, paramsType: section.paramsType, cause: error },
    );
  }
  const parts = [heading(node), body.trim(), renderToolExamples(section.tools)].filter(
    (part) => part !== '',
  );
  return parts.join('\n\n');
}

/** Drops the `[section ..., params ...]` suffix so a re-thrown error can carry the full path instead. */
function stripSubject(message: string): string {
  return message.replace(/ \[[^\]]*\]$/, '');
}

/** The section overrides of `override`, by dotted path. @internal */
export function indexSectionOverrides(
  override: PromptOverride | undefined,
): ReadonlyMap<string, SectionOverride> {
  return new Map((override?.sections ?? []).map((entry) => [entry.path.join('.'), entry]));
}
