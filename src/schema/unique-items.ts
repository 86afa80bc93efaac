import type { Ajv as AjvInstance } from 'ajv';

import { listKeywords, mapKeywords, schemaKeywords } from './check-json-schema.js';
import { isPlainObject } from './plain-object.js';

/** The keyword `uniqueItems` is compiled as (ajv's own compares object items pairwise). */
const keyword = 'affordanceUniqueItems';

/** JSON text of `value` with object keys sorted, so equal JSON values give equal text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    isPlainObject(item)
      ? Object.fromEntries(
          Object.keys(item)
            .sort()
            .map((key) => [key, item[key]]),
        )
      : item,
  );
}

/** JSON Schema's `uniqueItems`: no two items equal as JSON values, in time about linear in the array's text. */
function distinct(items: readonly unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    const text =
      typeof item === 'object' && item !== null
        ? canonical(item)
        : `${typeof item}:${String(item)}`;
    if (seen.has(text)) return false;
    seen.add(text);
  }
  return true;
}

/** Registers the linear `uniqueItems` on an ajv instance. @internal */
export function addUniqueItems(ajv: AjvInstance): void {
  ajv.addKeyword({
    keyword,
    type: 'array',
    schemaType: 'boolean',
    errors: false,
    validate: (unique: boolean, data: unknown[]) => !unique || distinct(data),
  });
}

/**
 * Renames every `uniqueItems` of a schema (a copy, changed in place) to the
 * keyword {@link addUniqueItems} registers: ajv's own compares object items
 * pairwise, so 100,000 objects in an argument would take minutes. @internal
 */
export function useLinearUniqueItems(schema: unknown): void {
  if (!isPlainObject(schema)) return;
  if ('uniqueItems' in schema) {
    schema[keyword] = schema['uniqueItems'];
    delete schema['uniqueItems'];
  }
  for (const [name, value] of Object.entries(schema)) {
    if (mapKeywords.has(name) && isPlainObject(value))
      Object.values(value).forEach(useLinearUniqueItems);
    else if (listKeywords.has(name) && Array.isArray(value)) value.forEach(useLinearUniqueItems);
    else if (schemaKeywords.has(name)) useLinearUniqueItems(value);
  }
}
