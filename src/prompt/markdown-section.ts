import { PromptRenderError } from '../core/errors/prompt-render-error.js';
import { PromptValidationError } from '../core/errors/prompt-validation-error.js';
import { listClassFields } from '../schema/class-fields.js';
import type { DataClass } from '../core/class-type.js';
import { formatPlaceholderValue } from './format-placeholder-value.js';
import { PromptSection, type SectionInit } from './prompt-section.js';
import { Template } from './template.js';

/** Fields of a {@link MarkdownSection}. */
export interface MarkdownSectionInit<P = unknown> extends SectionInit<P> {
  /** The body: markdown with `${field}` placeholders filled from the params. Omit for a heading-only section. */
  readonly template?: string | undefined;
}

/**
 * A section whose body is a markdown template. Placeholders are checked
 * against the params class when the section is built, so a typo fails at
 * startup rather than in front of the model.
 *
 * @example
 * new MarkdownSection({ key: 'guidance', title: 'Guidance', params: GuidanceParams,
 *   template: 'Prefer ${primaryTool} for critical lookups.' });
 */
export class MarkdownSection<P = unknown> extends PromptSection<P> {
  /** The parsed body template. */
  readonly template: Template;

  constructor(init: MarkdownSectionInit<P>) {
    super(init);
    this.template = checkedTemplate(init.template ?? '', this.key, this.paramsType);
  }

  override get bodyTemplate(): Template {
    return this.template;
  }

  override renderBody(params: P | undefined): string {
    return fillTemplate(this.template, params, this.key, this.paramsType);
  }

  override renderOverride(body: string, params: P | undefined): string {
    const template = checkedTemplate(body, this.key, this.paramsType);
    return fillTemplate(template, params, this.key, this.paramsType);
  }
}

function checkedTemplate(source: string, key: string, paramsType: DataClass | undefined): Template {
  let template: Template;
  try {
    template = new Template(source);
  } catch (error) {
    if (error instanceof PromptValidationError) {
      throw new PromptValidationError(error.message, {
        sectionPath: [key],
        paramsType,
        placeholder: error.placeholder,
      });
    }
    throw error;
  }
  const names = template.placeholders;
  if (names.length === 0) return template;
  if (paramsType === undefined) {
    const first = [...names].sort()[0];
    throw new PromptValidationError(
      `Section does not accept parameters but declares placeholders (${names.map((n) => `\${${n}}`).join(', ')}). ` +
        `Give section '${key}' a params class with these fields, or write $\${ for a literal "\${".`,
      { sectionPath: [key], placeholder: first },
    );
  }
  const fields = new Set(listClassFields(paramsType));
  for (const name of names) {
    if (!fields.has(name)) {
      const known = fields.size === 0 ? 'none found' : [...fields].join(', ');
      throw new PromptValidationError(
        `Template references unknown placeholder \${${name}}: ${paramsType.name} has no field '${name}' ` +
          `(fields: ${known}). Fix the placeholder or add the field (with an initialiser or a class-validator decorator).`,
        { sectionPath: [key], paramsType, placeholder: name },
      );
    }
  }
  return template;
}

function fillTemplate(
  template: Template,
  params: unknown,
  key: string,
  paramsType: DataClass | undefined,
): string {
  return template.fill((name) => {
    const value = formatPlaceholderValue((params as Record<string, unknown> | undefined)?.[name]);
    if (value === undefined) {
      throw new PromptRenderError(
        `Missing placeholder during render: \${${name}} has no value` +
          (paramsType === undefined ? '.' : ` (${paramsType.name}.${name} is null or undefined).`) +
          ` Pass a ${paramsType?.name ?? 'params'} instance with '${name}' set to render(), or give the section defaultParams.`,
        { sectionPath: [key], paramsType, placeholder: name },
      );
    }
    return value;
  });
}
