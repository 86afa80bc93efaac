/**
 * Keys that class-transformer drops or misreads when it copies an object
 * (`__proto__`, `constructor`, and every name `Object.prototype` defines, such
 * as `toString`), plus `prototype`. Arguments never carry them. @internal
 */
export const reservedKeys: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
  ...Object.getOwnPropertyNames(Object.prototype),
]);

/**
 * Whether `value` is a plain data object: an object literal, a `JSON.parse`
 * result or an `Object.create(null)` dictionary, from any realm. Class
 * instances, arrays, dates and maps are not.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** Sets `key` on `target` as an own data property, even for `__proto__`. @internal */
export function defineData(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
