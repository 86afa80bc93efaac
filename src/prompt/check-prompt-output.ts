import { ConfigurationError } from '../core/errors/configuration-error.js';
import {
  type DataSchema,
  isStandardSchema,
  type StandardSchemaV1,
} from '../schema/standard-schema.js';
import { toJsonSchema } from '../schema/to-json-schema.js';

/**
 * Refuses, when the prompt is built, an output class no answer could ever
 * validate against: the answer is parsed like tool arguments, so every field
 * needs a class-validator decorator, and a class without validated fields
 * (no decorators at all, or fields TypeScript does not emit without
 * `useDefineForClassFields`) would reject every answer at run time.
 * @throws ConfigurationError naming the class, the field and the fix. @internal
 */
export function checkOutput(outputType: DataSchema, label: string): void {
  if (isStandardSchema(outputType)) {
    checkOutputSchema(outputType, label);
    return;
  }
  // Throws a ConfigurationError naming `Class.field` for a field without decorators.
  const { schema } = toJsonSchema(outputType, 'standard');
  const properties = schema['properties'];
  const empty =
    typeof properties !== 'object' || properties === null || Object.keys(properties).length === 0;
  if (empty) {
    throw new ConfigurationError({
      subject: `Prompt '${label}' output ${outputType.name || '<anonymous class>'}`,
      problem:
        'has no fields with class-validator decorators, so no answer of the model could ever validate against it.',
      fix:
        'Decorate each field of the output class with class-validator decorators, e.g. ' +
        '`class Answer { @IsString() text!: string }`, or leave output out for a free-text answer.',
    });
  }
}

/**
 * Refuses, when the prompt is built, a Standard Schema output whose JSON
 * Schema cannot be written (no Standard JSON Schema support) or does not
 * describe an object, since providers want an object at the top.
 * @throws ConfigurationError naming the prompt and the fix.
 */
function checkOutputSchema(outputType: StandardSchemaV1, label: string): void {
  const vendor = outputType['~standard'].vendor;
  if (outputType['~standard'].jsonSchema === undefined) {
    throw new ConfigurationError({
      subject: `Prompt '${label}' output (${vendor} schema)`,
      problem:
        'does not implement Standard JSON Schema, so the JSON Schema of the answer cannot be sent to the model.',
      fix:
        'Use a version of the schema library that implements Standard JSON Schema, or wrap the schema ' +
        'in one that does (valibot: `toStandardJsonSchema(schema)` from @valibot/to-json-schema).',
    });
  }
  try {
    toJsonSchema(outputType, 'standard');
  } catch (error) {
    if (!ConfigurationError.is(error)) throw error;
    throw new ConfigurationError({
      subject: `Prompt '${label}' output (${vendor} schema)`,
      problem: `cannot be sent as a structured output: ${error.problem}`,
      fix: error.fix,
      cause: error,
    });
  }
}
