import {
  getOwnMetadata,
  mergeOverClassChain,
  metadataKeys,
  updateOwnMetadata,
} from './metadata-store.js';

type ReferenceFields = ReadonlySet<string>;

/** Records that `field` of the params class `target` names a media part (`@MediaReference`). @internal */
export function recordMediaReference(target: object, field: string): void {
  updateOwnMetadata<ReferenceFields>(
    target,
    metadataKeys.mediaReferences,
    () => new Set(),
    (current) => new Set(current).add(field),
  );
}

/**
 * The fields of a params class marked `@MediaReference`, its base classes'
 * included. Empty when none is marked. @internal
 */
export function readMediaReferenceFields(cls: object): readonly string[] {
  const merged = mergeOverClassChain(cls, (c) => {
    const own = getOwnMetadata<ReferenceFields>(c, metadataKeys.mediaReferences);
    return own === undefined ? undefined : [...own].map((field) => [field, true] as const);
  });
  return [...merged.keys()];
}
