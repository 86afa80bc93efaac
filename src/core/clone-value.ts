import { dataProperty, setOwnData } from './set-own-data.js';

/** Objects nested deeper than this are kept as they are rather than copied (no stack overflow). */
const MAX_COPY_DEPTH = 256;

/**
 * The copy of a tool's result value that the session records. The session
 * freezes what it stores; copying first means the application's own objects
 * (an entity a service still holds) are not frozen under it. Only what can be
 * copied faithfully is copied: plain objects and arrays, `Date`, `Map` and
 * `Set`, and class instances whose whole state is in own enumerable data
 * properties (their prototype is kept). Anything a copy could not reproduce is
 * kept as it is — and therefore frozen with the record: an object with private
 * `#` members, accessors, non-enumerable or symbol-keyed properties; an
 * instance of a built-in class with internal slots (`URL`, `RegExp`, `Error`,
 * a `Map` subclass…); a value that renders itself (`render()` or `toJSON()`);
 * binary buffers; anything nested deeper than 256 levels. Cycles and shared
 * children are preserved. Never throws: a value that cannot even be inspected
 * (a Proxy whose traps throw) is kept as it is.
 * @internal
 */
export function cloneValue<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  return copy(value, new Map(), 0) as T;
}

function copy(value: unknown, seen: Map<object, unknown>, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (depth >= MAX_COPY_DEPTH) return value;
  try {
    return copyObject(value, seen, depth);
  } catch {
    // Unreadable (a hostile Proxy): keep it; the session decides whether it can hold it.
    return value;
  }
}

function copyObject(value: object, seen: Map<object, unknown>, depth: number): unknown {
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto === Array.prototype) return copyArray(value as unknown[], seen, depth);
  if (proto === Date.prototype) return new Date((value as Date).getTime());
  if (proto === Map.prototype) {
    if (Reflect.ownKeys(value).length > 0) return value;
    const map = new Map<unknown, unknown>();
    seen.set(value, map);
    for (const [key, item] of value as Map<unknown, unknown>)
      map.set(copy(key, seen, depth + 1), copy(item, seen, depth + 1));
    return map;
  }
  if (proto === Set.prototype) {
    if (Reflect.ownKeys(value).length > 0) return value;
    const set = new Set<unknown>();
    seen.set(value, set);
    for (const item of value as Set<unknown>) set.add(copy(item, seen, depth + 1));
    return set;
  }
  if (!copyablePrototype(proto)) return value;
  const keys = Reflect.ownKeys(value);
  // The values as the descriptors hold them: read once, and never through a getter or a Proxy's `get`.
  const values: unknown[] = [];
  for (const key of keys) {
    if (typeof key === 'symbol') return value;
    const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined || !('value' in descriptor) || descriptor.enumerable !== true) {
      return value;
    }
    values.push(descriptor.value);
  }
  const plain = proto === null || proto === Object.prototype;
  const target = (plain && proto !== null ? {} : Object.create(proto)) as Record<string, unknown>;
  seen.set(value, target);
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    const item = copy(values[index], seen, depth + 1);
    // A class's prototype may have setters for any key: defined there, assigned where safe.
    if (plain) setOwnData(target, key, item);
    else Object.defineProperty(target, key, dataProperty(item));
  }
  return target;
}

function copyArray(value: unknown[], seen: Map<object, unknown>, depth: number): unknown {
  // Holes and extra properties (`array.total = 3`) would not survive an item-by-item copy.
  if (Reflect.ownKeys(value).length !== value.length + 1) return value;
  const items: unknown[] = [];
  seen.set(value, items);
  for (const item of value) items.push(copy(item, seen, depth + 1));
  return items;
}

/** Per prototype: whether its instances can be copied by copying their own properties. */
const copyable = new WeakMap<object, boolean>();

function copyablePrototype(proto: object | null): boolean {
  if (proto === null || proto === Object.prototype) return true;
  let known = copyable.get(proto);
  if (known === undefined) {
    known = userClassPrototype(proto) && copyablePrototype(Object.getPrototypeOf(proto) as object);
    copyable.set(proto, known);
  }
  return known;
}

/**
 * Whether `proto` belongs to an ordinary user class: not a built-in (native
 * code, or a class the global object names), no private members in its
 * source, and no `render()`/`toJSON()` of its own. A private-member check on
 * the source text may say "private" for a `#` in a string: the safe answer.
 */
function userClassPrototype(proto: object): boolean {
  if (Object.prototype.hasOwnProperty.call(proto, 'render')) return false;
  if (Object.prototype.hasOwnProperty.call(proto, 'toJSON')) return false;
  const constructor = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value as unknown;
  if (typeof constructor !== 'function') return true;
  if ((globalThis as Record<string, unknown>)[constructor.name] === constructor) return false;
  const source = Function.prototype.toString.call(constructor);
  return !source.includes('[native code]') && !/#[\p{ID_Start}$_]/u.test(source);
}
