import { getOwnMetadata, metadataKeys, updateOwnMetadata } from './metadata-store.js';

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
  const chain: object[] = [];
  for (
    let c: unknown = cls;
    typeof c === 'function' && c !== Function.prototype;
    c = Object.getPrototypeOf(c)
  ) {
    chain.unshift(c);
  }
  const merged = new Map<string, string>();
  for (const c of chain) {
    for (const [field, text] of getOwnMetadata<DescriptionMap>(c, metadataKeys.describe) ?? []) {
      merged.set(field, text);
    }
  }
  return merged;
}
