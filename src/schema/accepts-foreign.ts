import type { CompiledClass, CompiledField } from './compile-params.js';

/**
 * Whether class-validator accepts a value of a compiled field that the fast
 * path did not build: the default a fresh instance gives an absent field, and
 * what it holds.
 * @internal
 */
export function acceptsForeign(field: CompiledField, value: unknown): boolean {
  if (field.skipsNullish && (value === null || value === undefined)) return true;
  for (const check of field.checks) if (!check(value)) return false;
  return field.nested === undefined || acceptsForeignNested(field.nested.compiled, value);
}

/** class-validator's nested validation of a value: arrays item by item, objects by their own class. */
function acceptsForeignNested(compiled: CompiledClass, value: unknown): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value)) return value.every((item) => acceptsForeignNested(compiled, item));
  if (value instanceof Set || value instanceof Map || !(value instanceof Object)) return false;
  if ((value as { constructor?: unknown }).constructor !== compiled.cls) return false;
  const record = value as Record<string, unknown>;
  // Properties class-validator does not know are reported unless undefined (see `whitelist`).
  for (const key of Object.keys(record)) {
    if (!compiled.byKey.has(key) && record[key] !== undefined) return false;
  }
  return compiled.fields.every((field) => acceptsForeign(field, record[field.key]));
}
