import { dump } from '../schema/dump.js';

/**
 * Text for one template placeholder: strings as they are, numbers and booleans
 * in their usual form, dates as ISO strings, lists of plain values joined by
 * `, `, and anything else as compact JSON. `undefined` when there is no value.
 * @internal
 */
export function formatPlaceholderValue(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value instanceof Date) return value.toISOString();
  if (
    Array.isArray(value) &&
    value.every((item) => typeof item === 'string' || typeof item === 'number')
  ) {
    return value.join(', ');
  }
  return JSON.stringify(dump(value) ?? null);
}
