import { getMetadataStorage } from 'class-validator';

import type { Class } from '../core/class-type.js';

/** class-validator's record of one decorator on one field. */
export type ValidationMetadata = ReturnType<
  ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']
>[number];

interface IndexedStorage {
  readonly validationMetadatas?: ReadonlyMap<unknown, readonly ValidationMetadata[]>;
}

/**
 * The class-validator metadata of `cls` and the classes it extends, as
 * `getTargetValidationMetadatas(cls, '', false, false)` returns it (without
 * groups, its `always` flag changes nothing): the class's own records, then
 * its ancestors' records for fields it does not redeclare with the same
 * constraint type. class-validator finds the ancestors by testing every class
 * in the process (`instanceof` on each key of its store), so its cost grows
 * with the number of validated classes; this walks the prototype chain
 * instead. Falls back to class-validator when its store is not the indexed
 * `Map` this relies on. @internal
 */
export function validationMetadataOf(cls: Class): readonly ValidationMetadata[] {
  const storage = getMetadataStorage();
  const index = (storage as unknown as IndexedStorage).validationMetadatas;
  if (!(index instanceof Map)) return storage.getTargetValidationMetadatas(cls, '', false, false);
  const byTarget = index as ReadonlyMap<unknown, readonly ValidationMetadata[]>;
  const own = (byTarget.get(cls) ?? []).filter((metadata) => metadata.target === cls);
  // Root-most first: the order class-validator finds them in, since a base class is decorated first.
  const ancestors: unknown[] = [];
  for (
    let ancestor: unknown = Object.getPrototypeOf(cls);
    typeof ancestor === 'function' && ancestor !== Function.prototype;
    ancestor = Object.getPrototypeOf(ancestor)
  ) {
    ancestors.unshift(ancestor);
  }
  const inherited: ValidationMetadata[] = [];
  for (const ancestor of ancestors) {
    for (const metadata of byTarget.get(ancestor) ?? []) {
      if (typeof metadata.target !== 'function' || metadata.target === cls) continue;
      const redeclared = own.some(
        (mine) => mine.propertyName === metadata.propertyName && mine.type === metadata.type,
      );
      if (!redeclared) inherited.push(metadata);
    }
  }
  return own.concat(inherited);
}
