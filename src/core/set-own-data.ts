/**
 * Gives `target` (a fresh object whose prototype is `Object.prototype` or
 * null) the own, enumerable, writable, configurable data property `key` =
 * `value`. Assigned when `Object.prototype` has no such key (the fast path);
 * defined otherwise, so that neither `__proto__`, a read-only property of a
 * frozen `Object.prototype`, nor a setter some code added to it can turn the
 * write into something else. @internal
 */
export function setOwnData(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key in Object.prototype) {
    Object.defineProperty(target, key, dataProperty(value));
  } else target[key] = value;
}

/** An own, enumerable, writable, configurable data property holding `value`. @internal */
export function dataProperty(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true };
}
