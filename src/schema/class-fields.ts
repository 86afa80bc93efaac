import type { Class } from '../core/class-type.js';
import { readFieldDescriptions } from '../metadata/describe-metadata.js';
import { validationMetadataOf } from './validation-metadata.js';

/**
 * Field names of a params, result or output class, in declaration order:
 * every field carrying a class-validator decorator or `@Describe`, then any own
 * field a zero-argument construction defines (fields with initialisers).
 * @internal
 */
export function listClassFields(cls: Class): readonly string[] {
  const names = new Set<string>();
  const validations = validationMetadataOf(cls);
  for (const metadata of validations) names.add(metadata.propertyName);
  for (const field of readFieldDescriptions(cls).keys()) names.add(field);
  for (const field of instanceFields(cls)) names.add(field);
  return [...names];
}

function instanceFields(cls: Class): string[] {
  try {
    const instance = new (cls as unknown as new () => object)();
    return Object.keys(instance);
  } catch {
    return [];
  }
}
