import { ConfigurationError } from '../core/errors/configuration-error.js';
import { recordFieldDescription } from '../metadata/describe-metadata.js';

/**
 * Describes a field of a params, result or output class. The text reaches the
 * model in the field's JSON Schema `description` and in
 * `RenderedPrompt.toolParamDescriptions`.
 *
 * @example
 * class LookupParams { @Describe('Global identifier to fetch') @IsString() entityId!: string; }
 */
export function Describe(description: string): PropertyDecorator {
  return (target, property) => {
    const owner = (target as { constructor: { name: string } }).constructor;
    const text = description.trim();
    if (typeof property !== 'string' || text === '') {
      throw new ConfigurationError({
        subject: `${owner.name}.${String(property)}`,
        problem:
          typeof property === 'string'
            ? '@Describe needs a non-empty description.'
            : '@Describe only applies to string-named fields.',
        fix: "Pass the text the model should read, e.g. @Describe('Customer email address').",
      });
    }
    recordFieldDescription(owner, property, text);
  };
}
