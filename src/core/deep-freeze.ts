// Objects of graphs of more than RECORDED_FROM objects that were already frozen all the way down,
// so re-freezing a large shared value costs O(1). Smaller graphs are not recorded: walking them again
// costs less than adding them to (and the garbage collector keeping) a weak set.
const deeplyFrozen = new WeakSet();
const RECORDED_FROM = 16;

/**
 * Freezes `value` and everything reachable through its own enumerable
 * properties, array items and `Map`/`Set` entries, so code holding it cannot
 * change it. Functions (classes included) and binary buffers are left alone;
 * the internal slots of `Map`, `Set` and `Date` cannot be frozen by
 * JavaScript. @internal
 */
export function deepFreeze<T>(value: T): T {
  if (!isFreezable(value) || deeplyFrozen.has(value)) return value;
  const walk: FreezeWalk = { root: value, met: undefined, index: undefined };
  freezeOne(walk, value);
  // `met` is created by the first nested object (a value of primitives allocates nothing more):
  // every object met, the root first, frozen in that order; it grows as they are.
  const met = walk.met;
  if (met === undefined) return value;
  for (let at = 1; at < met.length; at += 1) freezeOne(walk, met[at] as object);
  // Recorded only once the whole graph is frozen, so a failure part-way leaves nothing marked.
  if (met.length > RECORDED_FROM) for (const object of met) deeplyFrozen.add(object);
  return value;
}

/** One `deepFreeze` walk: its root, every object met (and, for large graphs, a set of them). */
interface FreezeWalk {
  readonly root: object;
  met: object[] | undefined;
  index: Set<object> | undefined;
}

/**
 * Meets what `current` holds, then freezes it. In that order: on Node 20 the
 * first walk over the properties of an object just frozen cost about 0.3 µs
 * more than the same walk before freezing (a small result value, every call).
 */
function freezeOne(walk: FreezeWalk, current: object): void {
  if (Array.isArray(current)) {
    for (const item of current as unknown[]) visit(walk, item);
    Object.freeze(current);
    return;
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
  Object.freeze(current);
}

/** Meets `child` unless it is a primitive, already frozen deeply, or met already (cycles, shared children). */
function visit(walk: FreezeWalk, child: unknown): void {
  if (!isFreezable(child) || deeplyFrozen.has(child)) return;
  const met = (walk.met ??= [walk.root]);
  if (walk.index === undefined) {
    if (met.includes(child)) return;
    met.push(child);
    if (met.length > RECORDED_FROM) walk.index = new Set(met);
    return;
  }
  if (walk.index.has(child)) return;
  walk.index.add(child);
  met.push(child);
}

function isFreezable(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  return !(ArrayBuffer.isView(value) || value instanceof ArrayBuffer);
}
