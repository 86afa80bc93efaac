import fc from 'fast-check';

import { contactZoo } from './contact-params.js';
import { defaultsEntry } from './defaults-params.js';
import type { FastPathEntry } from './fast-path-entry.js';
import { formatEntry, moreFormatsEntry } from './format-params.js';
import { listEntry } from './list-params.js';
import { looseZoo } from './loose-params.js';
import { orderZoo } from './order-params.js';
import { routeEntry } from './route-params.js';
import { scalarEntry } from './scalar-params.js';
import { uncompilableEntries } from './uncompilable-params.js';
import { variantEntries } from './variant-params.js';
import type { ZooEntry } from './zoo-entry.js';

/** A class of the schema zoo, with its valid payloads. */
function fromSchemaZoo(entry: ZooEntry, compilable: boolean): FastPathEntry {
  return {
    name: entry.name,
    params: entry.params,
    compilable,
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
  formatEntry,
  moreFormatsEntry,
  ...uncompilableEntries,
  // String formats, lengths, bounds, IsIn, Equals, a default value.
  fromSchemaZoo(contactZoo, true),
  // ValidateIf; a custom validator.
  ...[orderZoo, looseZoo].map((entry) => fromSchemaZoo(entry, false)),
];
