// Objects with nested objects that were already frozen all the way down, so
// re-freezing a shared value costs O(1). Objects without nested objects are not
// recorded: checking them again is as cheap as looking them up.
const deeplyFrozen = new WeakSet();

/**
 * Freezes `value` and everything reachable through its own enumerable
 * properties, array items and `Map`/`Set` entries, so code holding it cannot
 * change it. Functions (classes included) and binary buffers are left alone;
 * the internal slots of `Map`, `Set` and `Date` cannot be frozen by
 * JavaScript. @internal
 */
export function deepFreeze<T>(value: T): T {
  if (!isFreezable(value) || deeplyFrozen.has(value)) return value;
  const stack: object[] = [];
  // Created only for values with nested objects; guards against cycles and shared children.
  let seen: Set<object> | undefined;
  const visit = (child: unknown): void => {
    if (!isFreezable(child) || deeplyFrozen.has(child)) return;
    seen ??= new Set([value]);
    if (seen.has(child)) return;
    seen.add(child);
    stack.push(child);
  };
  for (let current: object | undefined = value; current !== undefined; current = stack.pop()) {
    Object.freeze(current);
    if (Array.isArray(current)) {
      for (const item of current as unknown[]) visit(item);
      continue;
    }
    for (const key in current) {
      if (!Object.prototype.hasOwnProperty.call(current, key)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(current, key);
      // Accessors are not read: calling a getter here could have side effects.
      if (descriptor !== undefined && 'value' in descriptor) visit(descriptor.value);
    }
    if (current instanceof Map) {
      for (const [key, item] of current as Map<unknown, unknown>) {
        visit(key);
        visit(item);
      }
    } else if (current instanceof Set) {
      for (const item of current as Set<unknown>) visit(item);
    }
  }
  // Recorded only once the whole graph is frozen, so a failure part-way leaves nothing marked.
  if (seen !== undefined) for (const object of seen) deeplyFrozen.add(object);
  return value;
}

function isFreezable(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  return !(ArrayBuffer.isView(value) || value instanceof ArrayBuffer);
}
