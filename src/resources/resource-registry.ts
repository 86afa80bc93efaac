import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { ResourceBinding, StoredBinding } from './resource-binding.js';
import { ResourceContext } from './resource-context.js';
import { describeResourceKey, type ResourceKey } from './resource-key.js';
import { ResourceScope } from './resource-scope.js';

/** Options of {@link ResourceRegistry.merge}. */
export interface MergeOptions {
  /** Throw when both registries bind the same key (default); `false` lets `other` win. */
  readonly strict?: boolean;
}

const scopes: readonly string[] = Object.values(ResourceScope);

/**
 * Immutable bindings from keys to resource factories, each with a scope.
 * `open()` starts a {@link ResourceContext} for one evaluation, which creates
 * instances on demand and closes them at the end.
 *
 * @example
 * const resources = new ResourceRegistry()
 *   .bind(Filesystem, { create: () => new InMemoryFilesystem() })
 *   .bind(HttpClient, { scope: 'tool-call', create: () => new HttpClient() });
 */
export class ResourceRegistry {
  readonly #bindings: ReadonlyMap<ResourceKey<unknown>, StoredBinding>;

  constructor(bindings: ReadonlyMap<ResourceKey<unknown>, StoredBinding> = new Map()) {
    this.#bindings = bindings;
  }

  /** A registry with `key` bound to `binding`, replacing an earlier binding of `key`. */
  bind<T>(key: ResourceKey<T>, binding: ResourceBinding<T>): ResourceRegistry {
    checkKey(key);
    const scope = binding.scope ?? ResourceScope.Singleton;
    const name = describeResourceKey(key);
    if (!scopes.includes(scope)) {
      throw new ConfigurationError({
        subject: `Resource ${name}`,
        problem: `unknown scope ${scope}.`,
        fix: `Use one of ${scopes.map((s) => `'${s}'`).join(', ')}.`,
      });
    }
    if (typeof binding.create !== 'function') {
      throw new ConfigurationError({
        subject: `Resource ${name}`,
        problem: 'the binding has no create function.',
        fix: `Pass { create: (resolve) => new ${name}(...) }, or use registry.value(key, instance).`,
      });
    }
    if (binding.eager === true && scope !== ResourceScope.Singleton) {
      throw new ConfigurationError({
        subject: `Resource ${name}`,
        problem: `only singletons can be eager, but its scope is '${scope}'.`,
        fix: "Drop eager, or use scope 'singleton'.",
      });
    }
    return this.#with(key, {
      scope,
      create: binding.create,
      eager: binding.eager ?? false,
      provided: false,
    });
  }

  /** A registry with `key` bound to an existing instance. The context never closes it. */
  value<T>(key: ResourceKey<T>, instance: T): ResourceRegistry {
    checkKey(key);
    return this.#with(key, {
      scope: ResourceScope.Singleton,
      create: () => instance,
      eager: true,
      provided: true,
    });
  }

  /** A registry with the bindings of both; `other` wins conflicts unless `strict`. */
  merge(other: ResourceRegistry, options: MergeOptions = {}): ResourceRegistry {
    const theirs = other.#bindings;
    const conflicts = [...theirs.keys()].filter((key) => this.#bindings.has(key));
    if ((options.strict ?? true) && conflicts.length > 0) {
      throw new ConfigurationError({
        subject: 'ResourceRegistry.merge',
        problem: `both registries bind ${conflicts.map(describeResourceKey).join(', ')}.`,
        fix: 'Remove the duplicate binding, or pass { strict: false } to let the merged registry win.',
      });
    }
    return new ResourceRegistry(new Map([...this.#bindings, ...theirs]));
  }

  /** Whether `key` is bound. */
  has(key: ResourceKey<unknown>): boolean {
    return this.#bindings.has(key);
  }

  /** The bound keys, in binding order. */
  get keys(): readonly ResourceKey<unknown>[] {
    return [...this.#bindings.keys()];
  }

  /** The stored binding of `key`. @internal */
  bindingOf(key: ResourceKey<unknown>): StoredBinding | undefined {
    return this.#bindings.get(key);
  }

  /** Starts an evaluation's context and creates the eager singletons. */
  open(): ResourceContext {
    return ResourceContext.open(this);
  }

  #with(key: ResourceKey<unknown>, binding: StoredBinding): ResourceRegistry {
    return new ResourceRegistry(new Map(this.#bindings).set(key, binding));
  }
}

function checkKey(key: unknown): void {
  if (typeof key !== 'function' && !(typeof key === 'object' && key !== null)) {
    throw new ConfigurationError({
      subject: 'ResourceRegistry',
      problem: `expected a class or ResourceToken as key, got ${String(key)}.`,
      fix: "Key resources by class, or create a token: new ResourceToken<MyService>('MyService').",
    });
  }
}
