const builtInPrototypes = new Set<unknown>(
  [Date, RegExp, Map, Set, WeakMap, WeakSet, Promise, Error, ArrayBuffer].map(
    (type) => type.prototype,
  ),
);

/**
 * Whether `value` is an instance of a user-defined class: not a primitive,
 * array, plain object or built-in such as `Date` or `Map`. @internal
 */
export function isClassInstance(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === null || proto === Object.prototype || ArrayBuffer.isView(value)) return false;
  for (
    let p = proto as object | null;
    p !== null && p !== Object.prototype;
    p = Object.getPrototypeOf(p) as object | null
  ) {
    if (builtInPrototypes.has(p)) return false;
  }
  return true;
}
