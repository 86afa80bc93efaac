import { type Class, ConfigurationError } from '../index.js';

/**
 * Stands in for a section Nest builds per request (request- or
 * transient-scoped, or depending on such a provider). Nest resolves those
 * asynchronously while tool handlers resolve sections synchronously, so each
 * method of the stand-in resolves the instance with `resolve()` (Nest's
 * injector, for the evaluation's context) and calls the same method on it,
 * returning a promise. Reading anything but a method is refused with a hint.
 * @internal
 */
export function requestScopedSection(cls: Class, resolve: () => Promise<unknown>): object {
  const forwarders = new Map<string | symbol, (...args: unknown[]) => Promise<unknown>>();
  return new Proxy(Object.create(cls.prototype as object) as object, {
    get(_target, property) {
      const known = forwarders.get(property);
      if (known !== undefined) return known;
      if (property === 'constructor') return cls;
      if (!isMethod(cls.prototype as object, property)) {
        // `then` is probed by `await`; symbols by inspection and coercion: answer "none".
        if (property === 'then' || typeof property === 'symbol') return undefined;
        throw new ConfigurationError({
          subject: `${cls.name}.${property}`,
          problem:
            `${cls.name} is built by Nest per request (it is request- or transient-scoped, or depends on such a provider), ` +
            'so the object tool handlers receive forwards its methods to the instance Nest resolves for the request; ' +
            `'${property}' is not a method and cannot be read from it.`,
          fix: `Call a method of ${cls.name} instead, or resolve the instance yourself with Nest's ModuleRef.resolve().`,
        });
      }
      const forwarder = async (...args: unknown[]): Promise<unknown> => {
        const instance = (await resolve()) as Record<string | symbol, unknown>;
        const method = instance[property] as (...args: unknown[]) => unknown;
        return method.apply(instance, args);
      };
      forwarders.set(property, forwarder);
      return forwarder;
    },
  });
}

function isMethod(prototype: object, property: string | symbol): boolean {
  if (property === 'constructor') return false;
  for (let current: object | null = prototype; current !== null && current !== Object.prototype;) {
    const descriptor = Object.getOwnPropertyDescriptor(current, property);
    if (descriptor !== undefined) return typeof descriptor.value === 'function';
    current = Object.getPrototypeOf(current) as object | null;
  }
  return false;
}
