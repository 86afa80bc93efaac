import { ConfigurationError } from '../core/errors/configuration-error.js';
import { PromptValidationError } from '../core/errors/prompt-validation-error.js';
import { isThenable } from '../core/is-thenable.js';
import { issuePath } from '../schema/parse-standard-arguments.js';
import { isPlainObject } from '../schema/plain-object.js';
import type {
  InferSchemaInput,
  InferSchemaOutput,
  StandardSchemaV1,
} from '../schema/standard-schema.js';
import { standardSchemaParamsOf } from '../schema/standard-schema-params.js';

/**
 * The params of a section declared with a Standard Schema, for `render` and
 * `evaluate` (`params: [sectionParams(schema, value)]`): a section with a
 * params class is given an instance of the class; a section with a schema is
 * given its value through this, since a plain object names no schema.
 */
export class SectionParams<T = unknown> {
  /** @internal */
  constructor(
    /** The schema of the sections that use the value. */
    readonly schema: StandardSchemaV1<unknown, T>,
    /** The value as given (validated when a prompt is rendered with it). */
    readonly value: unknown,
  ) {
    Object.freeze(this);
  }
}

/**
 * The value of the sections whose `params` is `schema`, to pass in
 * `render({ params })` or `evaluate({ params })`. The schema validates it
 * when the prompt is rendered, and its output (defaults and transforms
 * applied) fills the template.
 *
 * @example
 * const Guidance = z.object({ primaryTool: z.string() });
 * runtime.evaluate(prompt, { params: [sectionParams(Guidance, { primaryTool: 'lookup_order' })] });
 */
export function sectionParams<S extends StandardSchemaV1>(
  schema: S,
  value: InferSchemaInput<S>,
): SectionParams<InferSchemaOutput<S>> {
  return new SectionParams(schema, value);
}

/** How a section's schema is named in messages: `params (zod schema)`. @internal */
export function schemaLabel(schema: StandardSchemaV1): string {
  return `${schema['~standard'].vendor} schema`;
}

/**
 * `value` validated by a section's params schema: the schema's output.
 * @throws PromptValidationError naming `where`, listing every issue with its
 * path, or saying the schema validates asynchronously (section params render
 * synchronously).
 * @internal
 */
export function validateSectionParams(
  schema: StandardSchemaV1,
  value: unknown,
  where: { readonly sectionPath?: readonly string[]; readonly what: string },
): unknown {
  const fields =
    where.sectionPath === undefined
      ? { placeholder: where.what }
      : { sectionPath: where.sectionPath, placeholder: where.what };
  const result = schema['~standard'].validate(value);
  if (isThenable(result)) {
    void result.then(undefined, () => undefined);
    throw new PromptValidationError(
      `Section params (${schemaLabel(schema)}) validate asynchronously, but a prompt renders synchronously. ` +
        'Use a schema without async refinements for section params.',
      fields,
    );
  }
  if (result.issues === undefined) return result.value;
  const listed = result.issues
    .slice(0, 10)
    .map((issue) => {
      const path = issuePath(issue.path ?? []);
      return path === '' ? issue.message : `${path}: ${issue.message}`;
    })
    .join('; ');
  const more = result.issues.length > 10 ? ` (and ${result.issues.length - 10} more)` : '';
  throw new PromptValidationError(
    `${where.what} do not match the section params (${schemaLabel(schema)}): ${listed}${more}. ` +
      'Pass values the schema accepts.',
    fields,
  );
}

/**
 * The top-level property names of a section's params schema (its Standard
 * JSON Schema), for checking template placeholders when the section is built.
 * @throws ConfigurationError naming the section when the schema has no JSON
 * Schema support or does not describe an object.
 * @internal
 */
export function schemaFields(schema: StandardSchemaV1, sectionKey: string): readonly string[] {
  try {
    const properties = standardSchemaParamsOf(schema).jsonSchema('standard').schema['properties'];
    return isPlainObject(properties) ? Object.keys(properties) : [];
  } catch (error) {
    if (!ConfigurationError.is(error)) throw error;
    throw new ConfigurationError({
      subject: `Section '${sectionKey}' params (${schemaLabel(schema)})`,
      problem: `its fields cannot be read to check the template: ${error.problem}`,
      fix:
        'Use an object schema from a library version that implements Standard JSON Schema, or wrap ' +
        'the schema (valibot: `toStandardJsonSchema(schema)` from @valibot/to-json-schema).',
      cause: error,
    });
  }
}
