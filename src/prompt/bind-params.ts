import { PromptValidationError } from '../core/errors/prompt-validation-error.js';
import type { DataClass } from '../core/class-type.js';

/**
 * Indexes the params instances given to `render` by class, rejecting classes
 * (instead of instances), plain objects, duplicates and classes no section uses.
 * @internal
 */
export function bindParams(
  params: readonly unknown[],
  known: ReadonlySet<DataClass>,
  promptName: string,
): ReadonlyMap<DataClass, unknown> {
  const bound = new Map<DataClass, unknown>();
  params.forEach((value, index) => {
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
          'Pass an instance of a section params class, e.g. `Object.assign(new GuidanceParams(), {...})`.',
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
