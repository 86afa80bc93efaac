import type { ResourceKey } from './resource-key.js';
import type { ResourceScope } from './resource-scope.js';

/** Looks up other resources while one is being created. */
export interface ResourceResolver {
  /** The instance bound to `key`; throws when nothing is bound. */
  get<T>(key: ResourceKey<T>): T;
  /** Whether something is bound to `key`. */
  has(key: ResourceKey<unknown>): boolean;
}

/** How to create one resource. */
export interface ResourceBinding<T> {
  /** How long an instance lives; `singleton` by default. */
  readonly scope?: ResourceScope;
  /** Creates the instance; `resolve` supplies its dependencies. */
  readonly create: (resolve: ResourceResolver) => T;
  /** Create a singleton when the context opens rather than on first use. */
  readonly eager?: boolean;
}

/** A binding as the registry stores it. */
export interface StoredBinding {
  readonly scope: ResourceScope;
  readonly create: (resolve: ResourceResolver) => unknown;
  readonly eager: boolean;
  /** A value supplied by the caller: never closed by the context. */
  readonly provided: boolean;
}

/** The bindings a `ResourceContext` creates instances from: what a `ResourceRegistry` holds. */
export interface ResourceBindings {
  /** Whether `key` is bound. */
  has(key: ResourceKey<unknown>): boolean;
  /** The bound keys, in binding order. */
  readonly keys: readonly ResourceKey<unknown>[];
  /** The stored binding of `key`. @internal */
  bindingOf(key: ResourceKey<unknown>): StoredBinding | undefined;
}
