import { PromptValidationError } from '../core/errors/prompt-validation-error.js';
import type { DataClass } from '../core/class-type.js';
import type { StandardSchemaV1 } from '../schema/standard-schema.js';
import { schemaLabel, SectionParams, validateSectionParams } from './section-params.js';

/**
 * Indexes the params given to `render` by class (instances) or schema
 * (`sectionParams(schema, value)`, validated here), rejecting classes
 * (instead of instances), plain objects, duplicates and classes or schemas no
 * section uses.
 * @internal
 */
export function bindParams(
  params: readonly unknown[],
  known: ReadonlySet<DataClass>,
  promptName: string,
  knownSchemas: ReadonlySet<StandardSchemaV1> = new Set(),
): ReadonlyMap<DataClass | StandardSchemaV1, unknown> {
  const bound = new Map<DataClass | StandardSchemaV1, unknown>();
  params.forEach((value, index) => {
    if (value instanceof SectionParams) {
      bindSchemaValue(bound, value, index, knownSchemas, promptName);
      return;
    }
    if (typeof value === 'function') {
      throw new PromptValidationError(
        `Prompt expects params instances: params[${index}] of '${promptName}' is the class ${value.name}. Pass \`new ${value.name}()\` (with its fields set).`,
        { placeholder: `params[${index}]` },
      );
    }
    const ctor = typeof value === 'object' && value !== null ? value.constructor : undefined;
    if (ctor === undefined || ctor === Object) {
      throw new PromptValidationError(
        `Prompt expects params instances: params[${index}] of '${promptName}' is ${value === null ? 'null' : typeof value === 'object' ? 'a plain object' : `a ${typeof value}`}. ` +
          'Pass an instance of a section params class, e.g. `Object.assign(new GuidanceParams(), {...})`, ' +
          'or the value of a section params schema as `sectionParams(schema, {...})`.',
        { placeholder: `params[${index}]` },
      );
    }
    const cls = ctor as DataClass;
    if (bound.has(cls)) {
      throw new PromptValidationError(
        `Duplicate params type supplied to prompt '${promptName}': two instances of ${cls.name}. Every section with that params class shares one instance; pass it once.`,
        { paramsType: cls },
      );
    }
    if (!known.has(cls)) {
      const names = [...known].map((type) => type.name).join(', ') || 'none';
      throw new PromptValidationError(
        `Unexpected params type supplied to prompt '${promptName}': no section uses ${cls.name} (params classes in use: ${names}).`,
        { paramsType: cls },
      );
    }
    bound.set(cls, value);
  });
  return bound;
}

function bindSchemaValue(
  bound: Map<DataClass | StandardSchemaV1, unknown>,
  given: SectionParams,
  index: number,
  known: ReadonlySet<StandardSchemaV1>,
  promptName: string,
): void {
  const { schema } = given;
  if (bound.has(schema)) {
    throw new PromptValidationError(
      `Duplicate params supplied to prompt '${promptName}': two values of one section params schema (${schemaLabel(schema)}). Every section with that schema shares one value; pass it once.`,
      { placeholder: `params[${index}]` },
    );
  }
  if (!known.has(schema)) {
    throw new PromptValidationError(
      `Unexpected params supplied to prompt '${promptName}': params[${index}] is the value of a ${schemaLabel(schema)} no section of the prompt declares as its params (${known.size} section params schema${known.size === 1 ? '' : 's'} in use). Pass the schema object the section was built with.`,
      { placeholder: `params[${index}]` },
    );
  }
  bound.set(schema, validateSectionParams(schema, given.value, { what: `params[${index}]` }));
}
