/**
 * A typed key for a resource with no class of its own (an interface such as
 * `Filesystem`). Classes are keys too.
 *
 * @example const Clock = new ResourceToken<Clock>('Clock');
 */
export class ResourceToken<T> {
  /** Shown in error messages. */
  readonly description: string;
  declare private readonly phantom: T;

  constructor(description: string) {
    this.description = description;
    Object.freeze(this);
  }

  /** `ResourceToken(Filesystem)`. */
  toString(): string {
    return `ResourceToken(${this.description})`;
  }
}

/** What a resource is looked up by: its class or a {@link ResourceToken}. */
export type ResourceKey<T> = ResourceToken<T> | (abstract new (...args: never[]) => T);

/** A key's name for messages. @internal */
export function describeResourceKey(key: ResourceKey<unknown>): string {
  return key instanceof ResourceToken ? key.description : key.name;
}
