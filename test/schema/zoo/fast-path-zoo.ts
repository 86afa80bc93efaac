import fc from 'fast-check';

import { contactZoo } from './contact-params.js';
import { defaultsEntry } from './defaults-params.js';
import type { FastPathEntry } from './fast-path-entry.js';
import { listEntry } from './list-params.js';
import { looseZoo } from './loose-params.js';
import { orderZoo } from './order-params.js';
import { routeEntry } from './route-params.js';
import { scalarEntry } from './scalar-params.js';
import { uncompilableEntries } from './uncompilable-params.js';
import { variantEntries } from './variant-params.js';
import type { ZooEntry } from './zoo-entry.js';

/** A class of the schema zoo that the fast path does not compile, with its valid payloads. */
function fromSchemaZoo(entry: ZooEntry): FastPathEntry {
  return {
    name: entry.name,
    params: entry.params,
    compilable: false,
    valid: fc.constantFrom(...(entry.valid as Record<string, unknown>[])),
  };
}

/** Every params class the compiled fast path is checked against. */
export const fastPathZoo: readonly FastPathEntry[] = [
  scalarEntry,
  listEntry,
  routeEntry,
  defaultsEntry,
  ...variantEntries,
  ...uncompilableEntries,
  // ValidateIf; string formats; a custom validator.
  ...[orderZoo, contactZoo, looseZoo].map(fromSchemaZoo),
];
