/**
 * The only module that reads or writes affordance's class metadata and the
 * compiler's `design:*` metadata. Metadata lives on the class itself, under
 * `Symbol.for` keys, so it is inherited through the prototype chain, survives
 * duplicate copies of the package and needs no global registry.
 */

/** Keys of every metadata record affordance stores on a class. @internal */
export const metadataKeys = {
  tools: Symbol.for('affordance.metadata.tools'),
  section: Symbol.for('affordance.metadata.section'),
  describe: Symbol.for('affordance.metadata.describe'),
  reducers: Symbol.for('affordance.metadata.reducers'),
  mediaReferences: Symbol.for('affordance.metadata.media-references'),
} as const;

type MetadataKey = (typeof metadataKeys)[keyof typeof metadataKeys];

/** Reads the record stored directly on `target` (not inherited). @internal */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- typed read of an untyped store
export function getOwnMetadata<T>(target: object, key: MetadataKey): T | undefined {
  return Object.prototype.hasOwnProperty.call(target, key)
    ? ((target as Record<symbol, unknown>)[key] as T)
    : undefined;
}

/**
 * Replaces the record stored directly on `target` with `update(current)`,
 * starting from `buildDefault()` when the class has none of its own. @internal
 */
export function updateOwnMetadata<T>(
  target: object,
  key: MetadataKey,
  buildDefault: () => T,
  update: (current: T) => T,
): void {
  const current = getOwnMetadata<T>(target, key) ?? buildDefault();
  Object.defineProperty(target, key, {
    value: update(current),
    enumerable: false,
    configurable: true,
    writable: false,
  });
}

/** Whether the `reflect-metadata` polyfill (or an equivalent) is loaded. @internal */
export function isReflectMetadataLoaded(): boolean {
  return typeof (Reflect as { getMetadata?: unknown }).getMetadata === 'function';
}

function getDesignMetadata(name: string, target: object, property?: string | symbol): unknown {
  if (!isReflectMetadataLoaded()) return undefined;
  const reflect = Reflect as unknown as {
    getMetadata(key: string, target: object, property?: string | symbol): unknown;
  };
  return property === undefined
    ? reflect.getMetadata(name, target)
    : reflect.getMetadata(name, target, property);
}

/** The compiler-emitted parameter types of a method or constructor, if any were emitted. @internal */
export function getDesignParamTypes(
  target: object,
  property?: string | symbol,
): readonly unknown[] | undefined {
  const types = getDesignMetadata('design:paramtypes', target, property);
  return Array.isArray(types) ? (types as unknown[]) : undefined;
}

/** The compiler-emitted return type of a method, if one was emitted. @internal */
export function getDesignReturnType(target: object, property: string | symbol): unknown {
  return getDesignMetadata('design:returntype', target, property);
}

/** The compiler-emitted type of a property, if one was emitted. @internal */
export function getDesignType(target: object, property: string | symbol): unknown {
  return getDesignMetadata('design:type', target, property);
}

/**
 * Merges a per-class map over the prototype chain of `cls`, base classes
 * first, so a subclass's own entries replace inherited ones with the same key.
 * @internal
 */
export function mergeOverClassChain<K, V>(
  cls: object,
  readOwn: (cls: object) => Iterable<readonly [K, V]> | undefined,
): Map<K, V> {
  const chain: object[] = [];
  for (
    let c: unknown = cls;
    typeof c === 'function' && c !== Function.prototype;
    c = Object.getPrototypeOf(c)
  ) {
    chain.unshift(c);
  }
  const merged = new Map<K, V>();
  for (const c of chain) {
    for (const [key, value] of readOwn(c) ?? []) merged.set(key, value);
  }
  return merged;
}
