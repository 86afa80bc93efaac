import { PromptRenderError } from '../core/errors/prompt-render-error.js';
import { checkVisibility, type SectionVisibility } from './section-visibility.js';
import { PromptValidationError } from '../core/errors/prompt-validation-error.js';
import type { DataClass } from '../core/class-type.js';
import { ToolDefinition } from '../tools/tool-definition.js';
import { checkPolicies, type PolicyRef } from '../tools/tool-policy.js';
import { type AnswerPolicyRef, checkGuardrails, type InputPolicyRef } from './guardrail-policy.js';
import type { Session } from '../session/session.js';
import type { Template } from './template.js';
import {
  isStandardSchema,
  type DataSchema,
  type StandardSchemaV1,
} from '../schema/standard-schema.js';
import { validateSectionParams } from './section-params.js';

/** The pattern every section key must match. */
export const SECTION_KEY_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** What an `enabled` predicate sees besides the section's params. */
export interface SectionRenderScope {
  /** The session the prompt is rendered for, if one was given to `render`. */
  readonly session: Session | undefined;
}

/** Decides at render time whether a section (and its whole subtree, tools included) is shown. */
// Method syntax keeps the parameter bivariant, so a PromptSection<P> is usable where any section is expected.
export type EnabledPredicate<P> = {
  check(params: P | undefined, scope: SectionRenderScope): boolean;
}['check'];

/** A section instance, or a class decorated with `@Section`. */
export type SectionRef = PromptSection | (abstract new (...args: never[]) => unknown);

/** Fields shared by every section. */
export interface SectionInit<P = unknown> {
  /** `^[a-z0-9][a-z0-9._-]{0,63}$`; unique among siblings. Forms the section's path. */
  readonly key: string;
  /** The heading text. */
  readonly title: string;
  /**
   * What fills the template: a params class, or a Standard Schema (e.g.
   * `z.object({...})`, whose output type is `P`; `render` is then given its
   * value as `sectionParams(schema, value)`). Omit for a section without params.
   */
  readonly params?: DataSchema<P> | undefined;
  /**
   * Params used when `render` is given none for this section: an instance of
   * the params class, or a value the params schema accepts.
   */
  readonly defaultParams?: P | undefined;
  /** Child sections, rendered beneath this one with deeper headings. */
  readonly children?: readonly SectionRef[] | undefined;
  /** Shows the section only when it returns `true`; a hidden section hides its subtree and tools. */
  readonly enabled?: EnabledPredicate<P> | undefined;
  /** Tools this section documents and contributes. */
  readonly tools?: readonly ToolDefinition[] | undefined;
  /** Whether prompt overrides may replace this section's body. Defaults to `true`. */
  readonly acceptsOverrides?: boolean | undefined;
  /** Gates checked before each call of this section's tools and its subtree's (see `ToolPolicy`). */
  readonly policies?: readonly PolicyRef[] | undefined;
  /**
   * What the section renders as when summarized (plain text): the model then
   * reads it, with how to open the section, instead of the section's text and
   * subtree, and is not offered the subtree's tools until it opens it.
   */
  readonly summary?: string | undefined;
  /** How the section renders unless an override says otherwise. Defaults to `'full'`; `'summary'` needs a `summary`. */
  readonly visibility?: SectionVisibility | undefined;
  /** Checks of the user's input, while the section is rendered in full (after the prompt's). */
  readonly inputPolicies?: readonly InputPolicyRef[] | undefined;
  /** Checks of the final answer, while the section is rendered in full (after the prompt's). */
  readonly answerPolicies?: readonly AnswerPolicyRef[] | undefined;
}

/**
 * Base class of every prompt section: a titled node that renders a markdown
 * body, contributes tools and holds children. Extend it (or use
 * `MarkdownSection`) for sections whose body is computed in code.
 */
export abstract class PromptSection<P = unknown> {
  /** The section's key. */
  readonly key: string;
  /** The heading text. */
  readonly title: string;
  /** The params class, or `undefined` (no params, or a params schema). */
  readonly paramsType: DataClass<P> | undefined;
  /** The params Standard Schema, or `undefined` (no params, or a params class). */
  readonly paramsSchema: StandardSchemaV1<unknown, P> | undefined;
  /** Default params, if any. */
  readonly defaultParams: P | undefined;
  /** Child sections (instances or `@Section` classes). */
  readonly children: readonly SectionRef[];
  /** The `enabled` predicate, if any. */
  readonly enabled: EnabledPredicate<P> | undefined;
  /** Tools this section contributes. */
  readonly tools: readonly ToolDefinition[];
  /** Whether overrides may replace the body. */
  readonly acceptsOverrides: boolean;
  /** Policies of this section's tools and its subtree's. */
  readonly policies: readonly PolicyRef[];
  /** The summary, if the section has one. */
  readonly summary: string | undefined;
  /** How the section renders unless an override says otherwise. */
  readonly visibility: SectionVisibility;
  /** The section's input guardrails. */
  readonly inputPolicies: readonly InputPolicyRef[];
  /** The section's answer guardrails. */
  readonly answerPolicies: readonly AnswerPolicyRef[];

  protected constructor(init: SectionInit<P>) {
    const params = init.params;
    this.paramsSchema = isStandardSchema(params) ? params : undefined;
    this.paramsType = isStandardSchema(params) ? undefined : params;
    this.key = validateSectionKey(init.key, this.paramsType);
    if (typeof init.title !== 'string' || init.title.trim() === '') {
      throw new PromptValidationError(`Section '${init.key}' needs a non-empty title.`, {
        sectionPath: [init.key],
        paramsType: this.paramsType,
        placeholder: 'title',
      });
    }
    this.title = init.title.trim();
    this.defaultParams =
      this.paramsSchema === undefined
        ? checkDefaults(this.key, this.paramsType, init.defaultParams)
        : checkSchemaDefaults(this.key, this.paramsSchema, init.defaultParams);
    this.children = Object.freeze([...(init.children ?? [])]);
    this.enabled = init.enabled;
    this.tools = Object.freeze(checkTools(this.key, this.paramsType, init.tools ?? []));
    this.acceptsOverrides = init.acceptsOverrides ?? true;
    this.policies = checkPolicies(`Section '${this.key}'`, init.policies);
    this.summary = checkSummary(this.key, init.summary);
    this.inputPolicies = checkGuardrails(`Section '${this.key}'`, init.inputPolicies, 'checkInput');
    this.answerPolicies = checkGuardrails(
      `Section '${this.key}'`,
      init.answerPolicies,
      'checkAnswer',
    );
    this.visibility = checkVisibility(init.visibility ?? 'full', [this.key]);
    if (this.visibility === 'summary' && this.summary === undefined) {
      throw new PromptValidationError(
        `Section '${this.key}' is summarized (visibility: 'summary') but has no summary. Give it \`summary: '...'\` or leave visibility out.`,
        { sectionPath: [this.key], paramsType: this.paramsType, placeholder: 'summary' },
      );
    }
  }

  /** The markdown body for `params` (without heading); `''` for none. */
  abstract renderBody(params: P | undefined): string;

  /**
   * Grows each time this section's `tools` change after it was built (an
   * `McpToolsSection` when its server's list changes); 0 for a section whose
   * tools are fixed. A running evaluation offers the new tools from its next
   * request on.
   */
  // A getter, not a field: a field set here would hide a subclass's getter on every instance.
  // eslint-disable-next-line @typescript-eslint/class-literal-property-style
  get toolsRevision(): number {
    return 0;
  }

  /** The body template overrides replace and whose hash guards them; `undefined` if not overridable. */
  get bodyTemplate(): Template | undefined {
    return undefined;
  }

  /** Renders an override body in place of the normal body. Sections without a template cannot. */
  renderOverride(_body: string, _params: P | undefined): string {
    throw new PromptRenderError(
      `Section '${this.key}' does not support override rendering. Use a MarkdownSection (or a @Section with a template), or set acceptsOverrides: false.`,
      { sectionPath: [this.key], paramsType: this.paramsType },
    );
  }
}

function validateSectionKey(key: unknown, paramsType: DataClass | undefined): string {
  if (typeof key !== 'string' || key.trim() === '') {
    throw new PromptValidationError('Section key must be a non-empty string.', {
      paramsType,
      placeholder: 'key',
    });
  }
  if (!SECTION_KEY_PATTERN.test(key)) {
    const suggestion = key
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[^a-z0-9]+/, '');
    const hint = SECTION_KEY_PATTERN.test(suggestion) ? ` Try '${suggestion}'.` : '';
    throw new PromptValidationError(
      `Section key must match ${SECTION_KEY_PATTERN.source} (got '${key}').${hint}`,
      { paramsType, placeholder: key },
    );
  }
  return key;
}

function checkDefaults<P>(
  key: string,
  paramsType: DataClass<P> | undefined,
  defaults: P | undefined,
): P | undefined {
  if (defaults === undefined) return undefined;
  const fields = { sectionPath: [key], paramsType, placeholder: 'defaultParams' };
  if (paramsType === undefined) {
    throw new PromptValidationError(
      `Section without parameters cannot define defaultParams. Declare \`params: YourParams\` on section '${key}' or drop defaultParams.`,
      fields,
    );
  }
  if (
    typeof defaults !== 'object' ||
    defaults === null ||
    Object.getPrototypeOf(defaults) !== paramsType.prototype
  ) {
    throw new PromptValidationError(
      `Section defaults must match section params type: pass an instance of ${paramsType.name} (e.g. \`Object.assign(new ${paramsType.name}(), {...})\`).`,
      fields,
    );
  }
  return defaults;
}

/** The defaults of a section with a params schema, validated: the schema's output. */
function checkSchemaDefaults<P>(
  key: string,
  schema: StandardSchemaV1<unknown, P>,
  defaults: P | undefined,
): P | undefined {
  if (defaults === undefined) return undefined;
  return validateSectionParams(schema, defaults, {
    sectionPath: [key],
    what: 'defaultParams',
  }) as P;
}

function checkTools(
  key: string,
  paramsType: DataClass | undefined,
  tools: readonly unknown[],
): ToolDefinition[] {
  return tools.map((tool, index) => {
    if (!(tool instanceof ToolDefinition)) {
      throw new PromptValidationError(
        `Section tools must be ToolDefinition instances (section '${key}', tools[${index}]). Build them with new ToolDefinition({...}) or @Tool methods.`,
        { sectionPath: [key], paramsType, placeholder: 'tools' },
      );
    }
    return tool as ToolDefinition;
  });
}

function checkSummary(key: string, summary: unknown): string | undefined {
  if (summary === undefined) return undefined;
  if (typeof summary !== 'string' || summary.trim() === '') {
    throw new PromptValidationError(
      `Section '${key}': summary must be a non-empty string. Give the text the model reads while the section is summarized, or leave summary out.`,
      { sectionPath: [key], placeholder: 'summary' },
    );
  }
  return summary.trim();
}
