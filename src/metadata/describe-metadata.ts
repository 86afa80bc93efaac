import {
  getOwnMetadata,
  mergeOverClassChain,
  metadataKeys,
  updateOwnMetadata,
} from './metadata-store.js';

type DescriptionMap = ReadonlyMap<string, string>;

/** Records `description` for `field` of the class `target`. @internal */
export function recordFieldDescription(target: object, field: string, description: string): void {
  updateOwnMetadata<DescriptionMap>(
    target,
    metadataKeys.describe,
    () => new Map(),
    (current) => new Map(current).set(field, description),
  );
}

/**
 * Field descriptions of a class, its own `@Describe` entries overriding those
 * of its base classes. Empty when nothing is described. @internal
 */
export function readFieldDescriptions(
  cls: abstract new (...args: never[]) => unknown,
): DescriptionMap {
  return mergeOverClassChain(cls, (c) => getOwnMetadata<DescriptionMap>(c, metadataKeys.describe));
}
