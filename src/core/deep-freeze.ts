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
  // Created only for values with nested objects: the objects left to freeze, and every object met
  // (guards against cycles and shared children). A value of primitives allocates nothing.
  const walk: FreezeWalk = { root: value, stack: undefined, seen: undefined };
  for (
    let current: object | undefined = value;
    current !== undefined;
    current = walk.stack?.pop()
  ) {
    Object.freeze(current);
    if (Array.isArray(current)) {
      for (const item of current as unknown[]) visit(walk, item);
      continue;
    }
    for (const key in current) {
      if (!Object.prototype.hasOwnProperty.call(current, key)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(current, key);
      // Accessors are not read: calling a getter here could have side effects.
      if (descriptor !== undefined && 'value' in descriptor) visit(walk, descriptor.value);
    }
    if (current instanceof Map) {
      for (const [key, item] of current as Map<unknown, unknown>) {
        visit(walk, key);
        visit(walk, item);
      }
    } else if (current instanceof Set) {
      for (const item of current as Set<unknown>) visit(walk, item);
    }
  }
  // Recorded only once the whole graph is frozen, so a failure part-way leaves nothing marked.
  if (walk.seen !== undefined) for (const object of walk.seen) deeplyFrozen.add(object);
  return value;
}

/** One `deepFreeze` walk: what is left to freeze, and what was met. */
interface FreezeWalk {
  readonly root: object;
  stack: object[] | undefined;
  seen: Set<object> | undefined;
}

/** Queues `child` for freezing unless it is a primitive, already frozen deeply, or already met. */
function visit(walk: FreezeWalk, child: unknown): void {
  if (!isFreezable(child) || deeplyFrozen.has(child)) return;
  walk.seen ??= new Set([walk.root]);
  if (walk.seen.has(child)) return;
  walk.seen.add(child);
  (walk.stack ??= []).push(child);
}

function isFreezable(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  return !(ArrayBuffer.isView(value) || value instanceof ArrayBuffer);
}
