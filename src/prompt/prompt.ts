import { PromptRenderError } from '../core/errors/prompt-render-error.js';
import { PromptValidationError } from '../core/errors/prompt-validation-error.js';
import { assertOverrideApplies } from './overrides/check-overrides.js';
import type { PromptOverride } from './overrides/prompt-override.js';
import { type DataSchema, isStandardSchema } from '../schema/standard-schema.js';
import type { Session } from '../session/session.js';
import type { Class, DataClass } from '../core/class-type.js';
import type { StandardSchemaV1 } from '../schema/standard-schema.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { bindParams } from './bind-params.js';
import { buildPromptRegistry, type PromptRegistry, type SectionNode } from './prompt-registry.js';
import type { SectionRef } from './prompt-section.js';
import { checkPolicies, type PolicyRef } from '../tools/tool-policy.js';
import { promptToolParts, type PromptToolParts } from './prompt-tool-parts.js';
import { RenderedPrompt } from './rendered-prompt.js';
import { sectionClassOf } from './section-from-class.js';
import { checkOutput } from './check-prompt-output.js';
import { schemaLabel, validateSectionParams } from './section-params.js';
import {
  indexSectionOverrides,
  renderSections,
  type SummarizedSection,
} from './render-sections.js';
import { disclosureTools } from './disclosure-tools.js';
import {
  checkVisibility,
  sessionVisibility,
  type SectionVisibility,
} from './section-visibility.js';
import { checkTimeout } from '../tools/tool-retry.js';
import { type AnswerPolicyRef, checkGuardrails, type InputPolicyRef } from './guardrail-policy.js';

/** Fields of a {@link Prompt}. */
export interface PromptInit<O = unknown> {
  /** Namespace, e.g. `support/triage`; with `key` it identifies the prompt for overrides and telemetry. */
  readonly ns: string;
  /** Key within the namespace. */
  readonly key: string;
  /** Display name; defaults to `key`. */
  readonly name?: string | undefined;
  /** Root sections, in order: section instances or `@Section` classes. */
  readonly sections: readonly SectionRef[];
  /**
   * The structured output: a class-validator class or a Standard Schema (e.g.
   * `z.object({...})`, whose output type types the response's `output`), or
   * `[Output]` for a list; omit for a free-text answer.
   */
  readonly output?: DataSchema<O> | readonly [DataSchema<O>] | undefined;
  /** Gates checked before each call of any of the prompt's tools, after the tools' and sections' own. */
  readonly policies?: readonly PolicyRef[] | undefined;
  /** The time limit of each call of a tool that declares no `timeoutMs` of its own; none by default. */
  readonly toolTimeoutMs?: number | undefined;
  /**
   * What the model's `open_sections` call does (see the sections' `summary`):
   * `'in-loop'` (the default) records the opening in the session and offers
   * the opened sections' tools from the next request; `'raise'` stops the
   * evaluation with `VisibilityExpansionRequired`, its state restored, for
   * the application to re-render and re-run.
   */
  readonly disclosure?: 'in-loop' | 'raise' | undefined;
  /** Checks of the user's input before the first request (`InputPolicy`), before the sections' own. */
  readonly inputPolicies?: readonly InputPolicyRef[] | undefined;
  /** Checks of the final answer (`AnswerPolicy`), before the sections' own. */
  readonly answerPolicies?: readonly AnswerPolicyRef[] | undefined;
  /** How many times answer policies may send an answer back to the model. Defaults to 2. */
  readonly maxAnswerRetries?: number | undefined;
}

/** Options of {@link Prompt.render}. */
export interface RenderOptions {
  /** Params instances, at most one per class; sections with that params class use it. */
  readonly params?: readonly object[] | undefined;
  /** The session, passed to `enabled` predicates. */
  readonly session?: Session | undefined;
  /** Overrides to apply (usually from a store's `resolve`). */
  readonly overrides?: PromptOverride | undefined;
  /**
   * Section visibility by dotted path (`{ 'guide.billing': 'full' }`), over
   * the session's `SectionVisibilityOverride`s and the sections' own.
   */
  readonly visibility?: Readonly<Record<string, SectionVisibility>> | undefined;
}

/**
 * A prompt: a tree of sections that renders to markdown and contributes the
 * tools of its enabled sections. Validated when built (keys, placeholders,
 * unique tool names), so mistakes surface at startup.
 */
export class Prompt<O = unknown> {
  /** The namespace. */
  readonly ns: string;
  /** The key. */
  readonly key: string;
  /** The display name. */
  readonly name: string;
  /** `ns/key`: how errors and messages name the prompt. */
  readonly label: string;
  /** The root sections as given. */
  readonly sections: readonly SectionRef[];
  /** The output class or Standard Schema (of one element, for list outputs), if any. */
  readonly outputType: DataSchema<O> | undefined;
  /** `'array'`, `'object'`, or `undefined` for free text. */
  readonly outputContainer: 'object' | 'array' | undefined;
  /** The section tree, validated at construction (for integrations that inspect a prompt). */
  readonly registry: PromptRegistry;
  /** Policies of every tool of the prompt, checked after the tools' and sections' own. */
  readonly policies: readonly PolicyRef[];
  /** The time limit of each call of a tool without its own `timeoutMs`, if any. */
  readonly toolTimeoutMs: number | undefined;
  /** What `open_sections` does: `'in-loop'` or `'raise'` (see {@link PromptInit.disclosure}). */
  readonly disclosure: 'in-loop' | 'raise';
  /** The prompt's own input guardrails. */
  readonly inputPolicies: readonly InputPolicyRef[];
  /** The prompt's own answer guardrails. */
  readonly answerPolicies: readonly AnswerPolicyRef[];
  /** How many times answer policies may send an answer back (see {@link PromptInit.maxAnswerRetries}). */
  readonly maxAnswerRetries: number;
  /** The tool parts of the last render, shared by the next one that offers the same tools. */
  #toolParts: PromptToolParts | undefined;
  /** The text of the last render, shared by the next one that renders the same. */
  #lastText: string | undefined;

  constructor(init: PromptInit<O>) {
    this.ns = requireText(init.ns, 'Prompt namespace', 'ns');
    this.key = requireText(init.key, 'Prompt key', 'key');
    const name = init.name?.trim();
    this.name = name === undefined || name === '' ? this.key : name;
    this.label = `${this.ns}/${this.key}`;
    this.policies = checkPolicies(`Prompt '${this.label}'`, init.policies);
    this.toolTimeoutMs = checkTimeout(
      `Prompt '${this.label}'`,
      init.toolTimeoutMs,
      'toolTimeoutMs',
    );
    this.sections = Object.freeze([...init.sections]);
    const output = init.output;
    this.outputType = Array.isArray(output)
      ? (output as readonly [DataSchema<O>])[0]
      : (output as DataSchema<O> | undefined);
    this.outputContainer =
      output === undefined ? undefined : Array.isArray(output) ? 'array' : 'object';
    const type: unknown = this.outputType;
    if (output !== undefined && typeof type !== 'function' && !isStandardSchema(type)) {
      throw new PromptValidationError(
        `Prompt '${this.label}': output must be a class, a Standard Schema, or [either] (got ${typeof type}).`,
        { placeholder: 'output' },
      );
    }
    if (this.outputType !== undefined) checkOutput(this.outputType, this.label);
    this.registry = buildPromptRegistry(this.sections);
    this.disclosure = checkDisclosure(this.label, init.disclosure);
    const subject = `Prompt '${this.label}'`;
    this.inputPolicies = checkGuardrails(subject, init.inputPolicies, 'checkInput');
    this.answerPolicies = checkGuardrails(subject, init.answerPolicies, 'checkAnswer');
    this.maxAnswerRetries = init.maxAnswerRetries ?? 2;
    if (!Number.isInteger(this.maxAnswerRetries) || this.maxAnswerRetries < 0) {
      throw new PromptValidationError(
        `${subject}: maxAnswerRetries must be a whole number of at least 0 (got ${String(init.maxAnswerRetries)}).`,
        { placeholder: 'maxAnswerRetries' },
      );
    }
  }

  /** The `@Section` classes of the prompt's tree, depth-first (sections built as instances are not listed). */
  get sectionClasses(): readonly Class[] {
    return this.registry.nodes
      .map((node) => sectionClassOf(node.section))
      .filter((cls): cls is Class => cls !== undefined);
  }

  /**
   * Every tool declared in the prompt's tree, whether or not its section is
   * enabled, depth-first (what codecs and descriptors register). For the
   * tools a render offers, use {@link Prompt.tools}.
   */
  get allTools(): readonly ToolDefinition[] {
    return this.registry.tools.map((entry) => entry.tool);
  }

  /**
   * The tools of the enabled sections, depth-first, in declaration order:
   * what `render(options).tools` offers (section defaults and enablement
   * honoured, overrides applied; a summarized section's tools are left out
   * and the tools that open it offered instead). Renders the prompt.
   *
   * @throws PromptRenderError when a section's params are missing, as `render` does.
   */
  tools(options: RenderOptions = {}): readonly ToolDefinition[] {
    return this.render(options).tools;
  }

  /** The sum of the sections' `toolsRevision`: it changes when a section's tools change after the prompt was built. */
  get toolsRevision(): number {
    let revision = 0;
    for (const node of this.registry.nodes) revision += node.section.toolsRevision;
    return revision;
  }

  /** Renders the enabled sections with `params` and collects their tools. */
  render(options: RenderOptions = {}): RenderedPrompt {
    const label = this.label;
    const bound = bindParams(
      options.params ?? [],
      this.registry.paramsTypes,
      label,
      this.registry.paramsSchemas,
    );
    if (options.overrides !== undefined) assertOverrideApplies(this, options.overrides);
    const sectionOverrides = indexSectionOverrides(options.overrides);
    const { texts, enabled, summarized } = renderSections(
      {
        nodes: this.registry.nodes,
        params: (node) => this.resolveParams(node, bound),
        session: options.session,
        overrides: sectionOverrides,
        visibility: visibilityOf(options),
        hasTools: (index) => this.#hasTools(index),
      },
      0,
      this.registry.nodes.length,
    );
    const synthetic = summarized.length === 0 ? undefined : this.#disclosureTools(summarized);
    const parts = promptToolParts(
      this.#toolParts,
      this.policies,
      enabled,
      options.overrides,
      synthetic,
    );
    this.#toolParts = parts;
    const text = texts.join('\n\n');
    // A text equal to the last one is kept once: evaluations alive at once share it.
    const shared = this.#lastText === text ? this.#lastText : text;
    this.#lastText = shared;
    return new RenderedPrompt({
      ns: this.ns,
      key: this.key,
      name: this.name,
      text: shared,
      tools: parts.tools,
      toolParamDescriptions: parts.toolParamDescriptions,
      policies: parts.policies,
      toolsByName: parts.toolsByName,
      outputType: this.outputType,
      outputContainer: this.outputContainer,
      summarized,
      inputPolicies: guards(this.inputPolicies, enabled, (node) => node.section.inputPolicies),
      answerPolicies: guards(this.answerPolicies, enabled, (node) => node.section.answerPolicies),
    });
  }

  /** Whether the subtree of the node at `index` contributes a tool. */
  #hasTools(index: number): boolean {
    const nodes = this.registry.nodes;
    const end = (nodes[index] as SectionNode).subtreeEnd;
    for (let at = index; at < end; at += 1) {
      if ((nodes[at] as SectionNode).section.tools.length > 0) return true;
    }
    return false;
  }

  /** The synthetic tools the summarized sections need, refusing a prompt tool of the same name. */
  #disclosureTools(summarized: readonly SummarizedSection[]): readonly ToolDefinition[] {
    const tools: ToolDefinition[] = [];
    if (summarized.some((section) => section.hasTools)) tools.push(disclosureTools.open);
    if (summarized.some((section) => !section.hasTools)) tools.push(disclosureTools.read);
    for (const tool of tools) {
      const clash = this.registry.tools.find((entry) => entry.tool.name === tool.name);
      if (clash !== undefined) {
        throw new PromptValidationError(
          `Tool '${tool.name}' of section '${clash.path.join('.')}' has the name of the tool that opens summarized sections. Rename the tool.`,
          { sectionPath: clash.path, placeholder: tool.name },
        );
      }
    }
    return tools;
  }

  private resolveParams(
    node: SectionNode,
    bound: ReadonlyMap<DataClass | StandardSchemaV1, unknown>,
  ): unknown {
    const schema = node.section.paramsSchema;
    if (schema !== undefined) return this.resolveSchemaParams(node, schema, bound);
    const type = node.section.paramsType;
    if (type === undefined) return undefined;
    if (bound.has(type)) return bound.get(type);
    if (node.section.defaultParams !== undefined) return node.section.defaultParams;
    if (this.registry.defaultsByType.has(type)) return this.registry.defaultsByType.get(type);
    try {
      return new type();
    } catch (cause) {
      throw new PromptRenderError(
        `Missing parameters for section: no ${type.name} was passed to render(), the section has no defaultParams, and \`new ${type.name}()\` threw.`,
        { sectionPath: node.path, paramsType: type, cause },
      );
    }
  }

  /** A schema section's params: the value passed, the defaults, or what the schema makes of `{}`. */
  private resolveSchemaParams(
    node: SectionNode,
    schema: StandardSchemaV1,
    bound: ReadonlyMap<DataClass | StandardSchemaV1, unknown>,
  ): unknown {
    if (bound.has(schema)) return bound.get(schema);
    if (node.section.defaultParams !== undefined) return node.section.defaultParams;
    if (this.registry.defaultsByType.has(schema)) return this.registry.defaultsByType.get(schema);
    try {
      return validateSectionParams(schema, {}, { sectionPath: node.path, what: 'params' });
    } catch (cause) {
      throw new PromptRenderError(
        `Missing parameters for section: no sectionParams(schema, value) for its ${schemaLabel(schema)} was passed to render(), the section has no defaultParams, and the schema does not accept {}. Pass sectionParams(schema, {...}) in params.`,
        { sectionPath: node.path, cause },
      );
    }
  }
}

function requireText(value: unknown, what: string, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new PromptValidationError(`${what} must be a non-empty string.`, { placeholder: field });
  }
  return value.trim();
}

/** The visibility a render follows: the session's overrides, then `options.visibility` over them. */
function visibilityOf(options: RenderOptions): ReadonlyMap<string, SectionVisibility> | undefined {
  const fromSession = sessionVisibility(options.session);
  const given = options.visibility;
  if (given === undefined) return fromSession;
  const merged = new Map(fromSession);
  for (const [path, visibility] of Object.entries(given)) {
    merged.set(path, checkVisibility(visibility, path.split('.')));
  }
  return merged;
}

function checkDisclosure(label: string, given: unknown): 'in-loop' | 'raise' {
  if (given === undefined || given === 'in-loop' || given === 'raise') return given ?? 'in-loop';
  throw new PromptValidationError(
    `Prompt '${label}': disclosure must be 'in-loop' or 'raise' (got ${typeof given === 'string' ? `'${given}'` : typeof given}).`,
    { placeholder: 'disclosure' },
  );
}

/** The prompt's guardrails, then those of the sections rendered in full, in render order. */
function guards<R>(
  own: readonly R[],
  enabled: readonly SectionNode[],
  of: (node: SectionNode) => readonly R[],
): readonly R[] {
  let all = own;
  for (const node of enabled) {
    const more = of(node);
    if (more.length > 0) all = [...all, ...more];
  }
  return all;
}
