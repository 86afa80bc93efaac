import type { ZooEntry } from './zoo-entry.js';

/** A tool without params. */
export class EmptyParams {}

export const emptyZoo: ZooEntry = {
  name: 'empty',
  params: EmptyParams,
  valid: [{}],
  invalid: [{ anything: 1 }, JSON.parse('{"__proto__": {}}') as unknown],
};
