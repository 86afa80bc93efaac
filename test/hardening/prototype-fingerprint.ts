/**
 * A record of the own properties (names and descriptors), the prototype and
 * the extensibility of a set of objects, to prove that nothing a model sends
 * or a tool returns changes a built-in or a params class's prototype.
 */

interface DescriptorPrint {
  readonly value: unknown;
  readonly get: unknown;
  readonly set: unknown;
  readonly writable: boolean | undefined;
  readonly enumerable: boolean | undefined;
  readonly configurable: boolean | undefined;
}

interface ObjectPrint {
  readonly name: string;
  readonly target: object;
  readonly prototype: object | null;
  readonly extensible: boolean;
  readonly properties: ReadonlyMap<PropertyKey, DescriptorPrint>;
}

/** The fingerprint of named objects, taken by {@link fingerprint}. */
export type Fingerprint = readonly ObjectPrint[];

/** Fingerprints each object of `targets` (name → object). */
export function fingerprint(targets: Readonly<Record<string, object>>): Fingerprint {
  return Object.entries(targets).map(([name, target]) => ({
    name,
    target,
    prototype: Reflect.getPrototypeOf(target),
    extensible: Reflect.isExtensible(target),
    properties: new Map(
      Reflect.ownKeys(target).map((key) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(target, key) as PropertyDescriptor;
        return [
          key,
          {
            value: descriptor.value as unknown,
            get: descriptor.get,
            set: descriptor.set,
            writable: descriptor.writable,
            enumerable: descriptor.enumerable,
            configurable: descriptor.configurable,
          },
        ];
      }),
    ),
  }));
}

/** What changed between `before` and a new fingerprint of the same objects; empty when nothing did. */
export function changesSince(before: Fingerprint): string[] {
  const changes: string[] = [];
  for (const print of before) {
    const now = fingerprint({ [print.name]: print.target })[0] as ObjectPrint;
    if (now.prototype !== print.prototype) changes.push(`${print.name}: its prototype changed`);
    if (now.extensible !== print.extensible)
      changes.push(`${print.name}: its extensibility changed`);
    for (const [key, descriptor] of now.properties) {
      const old = print.properties.get(key);
      if (old === undefined) changes.push(`${print.name}: property ${String(key)} was added`);
      else if (!sameDescriptor(old, descriptor))
        changes.push(`${print.name}: property ${String(key)} was changed`);
    }
    for (const key of print.properties.keys()) {
      if (!now.properties.has(key))
        changes.push(`${print.name}: property ${String(key)} was removed`);
    }
  }
  return changes;
}

function sameDescriptor(a: DescriptorPrint, b: DescriptorPrint): boolean {
  return (
    Object.is(a.value, b.value) &&
    a.get === b.get &&
    a.set === b.set &&
    a.writable === b.writable &&
    a.enumerable === b.enumerable &&
    a.configurable === b.configurable
  );
}
