import { PromptRenderError } from '../core/errors/prompt-render-error.js';
import { PromptValidationError } from '../core/errors/prompt-validation-error.js';
import { listClassFields } from '../schema/class-fields.js';
import type { DataClass } from '../core/class-type.js';
import { formatPlaceholderValue } from './format-placeholder-value.js';
import { PromptSection, type SectionInit } from './prompt-section.js';
import { Template } from './template.js';
import type { StandardSchemaV1 } from '../schema/standard-schema.js';
import { schemaFields, schemaLabel } from './section-params.js';

/** What a section's placeholders are checked against: its params class or its params schema. */
interface ParamsSource {
  readonly paramsType: DataClass | undefined;
  readonly paramsSchema: StandardSchemaV1 | undefined;
}

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
    this.template = checkedTemplate(init.template ?? '', this.key, this);
  }

  override get bodyTemplate(): Template {
    return this.template;
  }

  override renderBody(params: P | undefined): string {
    return fillTemplate(this.template, params, this.key, this);
  }

  override renderOverride(body: string, params: P | undefined): string {
    const template = checkedTemplate(body, this.key, this);
    return fillTemplate(template, params, this.key, this);
  }
}

function checkedTemplate(source: string, key: string, from: ParamsSource): Template {
  const { paramsType, paramsSchema } = from;
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
  if (paramsSchema !== undefined) return checkSchemaPlaceholders(template, key, paramsSchema);
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

function checkSchemaPlaceholders(
  template: Template,
  key: string,
  schema: StandardSchemaV1,
): Template {
  const fields = new Set(schemaFields(schema, key));
  for (const name of template.placeholders) {
    if (!fields.has(name)) {
      const known = fields.size === 0 ? 'none found' : [...fields].join(', ');
      throw new PromptValidationError(
        `Template references unknown placeholder \${${name}}: the section params (${schemaLabel(schema)}) have no property '${name}' ` +
          `(properties: ${known}). Fix the placeholder or add the property to the schema.`,
        { sectionPath: [key], placeholder: name },
      );
    }
  }
  return template;
}

function fillTemplate(
  template: Template,
  params: unknown,
  key: string,
  { paramsType, paramsSchema }: ParamsSource,
): string {
  return template.fill((name) => {
    const value = formatPlaceholderValue((params as Record<string, unknown> | undefined)?.[name]);
    if (value === undefined) {
      const pass =
        paramsSchema === undefined
          ? `a ${paramsType?.name ?? 'params'} instance with '${name}' set`
          : `sectionParams(schema, value) with '${name}' set`;
      throw new PromptRenderError(
        `Missing placeholder during render: \${${name}} has no value` +
          (paramsType === undefined ? '.' : ` (${paramsType.name}.${name} is null or undefined).`) +
          ` Pass ${pass} to render(), or give the section defaultParams.`,
        { sectionPath: [key], paramsType, placeholder: name },
      );
    }
    return value;
  });
}
