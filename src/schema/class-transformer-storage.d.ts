/**
 * class-transformer keeps `@Type()` metadata in a singleton it does not
 * re-export from its entry point, and ships no declaration beside the module
 * that holds it. This declares that module with the package's own types.
 */
declare module 'class-transformer/cjs/storage.js' {
  import type { MetadataStorage } from 'class-transformer/types/MetadataStorage.js';

  /** The storage every class-transformer decorator writes to. */
  export const defaultMetadataStorage: MetadataStorage;
}
