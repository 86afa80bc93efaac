/**
 * Names what kind of value `value` is, for an error message: `null`,
 * `undefined`, `an array`, `a plain object`, `an instance of Ticket` (`an
 * object` when its class has no name), or `a string` / `a number` / ... for
 * the other types. Never throws, whatever the value (a Proxy with throwing
 * traps, a null-prototype object).
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  try {
    if (Array.isArray(value)) return 'an array';
    if (typeof value !== 'object') return `a ${typeof value}`;
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype === Object.prototype || prototype === null) return 'a plain object';
    const name: unknown = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== '' ? `an instance of ${name}` : 'an object';
  } catch {
    return 'an object';
  }
}
