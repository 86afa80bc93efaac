// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- ambient typing for a deep import, needed by every tsconfig
/// <reference path="./class-transformer-storage.d.ts" />
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';

import type { Class } from '../core/class-type.js';

/**
 * The type a field names with class-transformer's `@Type(() => X)`, or
 * `undefined` when it has none or the type function throws. @internal
 */
export function readDeclaredType(cls: Class, field: string): unknown {
  // The storage's typings claim a result even when no `@Type` exists.
  const metadata = defaultMetadataStorage.findTypeMetadata(cls, field) as
    ReturnType<typeof defaultMetadataStorage.findTypeMetadata> | undefined;
  if (metadata === undefined) return undefined;
  try {
    return metadata.typeFunction({ newObject: {}, object: {}, property: field });
  } catch {
    return metadata.reflectedType;
  }
}
