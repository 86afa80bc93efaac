import { contactZoo } from './contact-params.js';
import { emptyZoo } from './empty-params.js';
import { lookupZoo } from './lookup-params.js';
import { looseZoo } from './loose-params.js';
import { orderZoo } from './order-params.js';
import { treeZoo } from './tree-params.js';
import type { ZooEntry } from './zoo-entry.js';

/** Every params class of the schema zoo. */
export const zoo: readonly ZooEntry[] = [
  lookupZoo,
  orderZoo,
  contactZoo,
  treeZoo,
  emptyZoo,
  looseZoo,
];
