/**
 * A deep copy of a tool's result value for the session: class instances keep
 * their prototype, arrays, `Map`s, `Set`s and `Date`s are copied, functions and
 * binary buffers are shared, cycles and shared children are preserved. The
 * session freezes what it stores; copying first means the application's own
 * objects (an entity a service still holds) are never frozen under it.
 * @internal
 */
export function cloneValue<T>(value: T): T {
  return copy(value, new Map()) as T;
}

function copy(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (value instanceof Date) return new Date(value.getTime());
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    seen.set(value, items);
    for (const item of value as unknown[]) items.push(copy(item, seen));
    return items;
  }
  if (value instanceof Map) {
    const map = new Map<unknown, unknown>();
    seen.set(value, map);
    for (const [key, item] of value as Map<unknown, unknown>)
      map.set(copy(key, seen), copy(item, seen));
    return map;
  }
  if (value instanceof Set) {
    const set = new Set<unknown>();
    seen.set(value, set);
    for (const item of value as Set<unknown>) set.add(copy(item, seen));
    return set;
  }
  const target = Object.create(Object.getPrototypeOf(value) as object | null) as Record<
    string,
    unknown
  >;
  seen.set(value, target);
  for (const key of Object.keys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined) continue;
    if ('value' in descriptor) descriptor.value = copy(descriptor.value, seen);
    Object.defineProperty(target, key, { ...descriptor, writable: true, configurable: true });
  }
  return target;
}
