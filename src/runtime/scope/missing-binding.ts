import { ClassElementMetadataKind, getClassMetadata } from '@inversifyjs/core';
import type { Container, ServiceIdentifier } from 'inversify';

import type { ConfigurationErrorOptions } from '../../core/errors/configuration-error.js';
import type { ScopedServiceIds } from './check-scopes.js';
import { serviceIdName } from './service-id-name.js';

/** How inversify's planning names a service it found no binding for (`@inversifyjs/core`, 15.x). */
const NO_BINDINGS = /^No bindings found for service: "(.*)"\.$/m;

/**
 * The binding that makes `id` resolvable, as the fix of an error shows it:
 * `container.bind(Greeter).toSelf()` for a class, `.to(...)` for a token. @internal
 */
export function bindingExample(id: ServiceIdentifier): string {
  const binding = typeof id === 'function' ? '.toSelf()' : '.to(...)';
  return `container.bind(${serviceIdName(id)})${binding}`;
}

/**
 * Explains why `root` (a section class, usually) cannot be planned when the cause is
 * a service nobody bound: names the section, the service, the path from one to
 * the other and the binding to add, instead of inversify's planning trace
 * (kept as the cause). `undefined` for any other cause (ambiguous bindings, a
 * cycle), or when the service is not found where inversify said it was. @internal
 */
export function describeMissingBinding(
  container: Container,
  root: ServiceIdentifier,
  cause: unknown,
  scopes: ScopedServiceIds,
): ConfigurationErrorOptions | undefined {
  const missing = cause instanceof Error ? NO_BINDINGS.exec(cause.message)?.[1] : undefined;
  if (missing === undefined || typeof root !== 'function') return undefined;
  const scoped = new Set<ServiceIdentifier>([...scopes.evaluation, ...scopes.call]);
  const path = new MissingSearch(container, scoped, missing).from(root, [root], new Set());
  const service = path?.[path.length - 1];
  if (path === undefined || service === undefined) return undefined;
  const name = serviceIdName(root);
  const serviceName = serviceIdName(service);
  const through = path.length > 2 ? ` (${path.map((id) => serviceIdName(id)).join(' → ')})` : '';
  return {
    subject: name,
    problem:
      `${path.length > 2 ? 'depends on' : 'injects'} ${serviceName}${through}, which is not bound in the ` +
      'container, so it cannot be built.',
    fix:
      `Bind ${serviceName} in the application container before the prompt's first evaluation, e.g. ` +
      `${bindingExample(service)} (with createTestRuntime, in its configure), or mark the injection @optional().`,
    cause,
  };
}

/** Walks constructor and property injections from a class down to the unbound service inversify named. */
class MissingSearch {
  readonly #container: Container;
  readonly #scoped: ReadonlySet<ServiceIdentifier>;
  readonly #missing: string;

  constructor(container: Container, scoped: ReadonlySet<ServiceIdentifier>, missing: string) {
    this.#container = container;
    this.#scoped = scoped;
    this.#missing = missing;
  }

  /** The path from the root to the missing service through `cls`, or `undefined`. */
  from(
    cls: ServiceIdentifier,
    path: readonly ServiceIdentifier[],
    seen: Set<ServiceIdentifier>,
  ): readonly ServiceIdentifier[] | undefined {
    if (typeof cls !== 'function' || seen.has(cls)) return undefined;
    seen.add(cls);
    for (const id of this.#injectedIds(cls)) {
      if (this.#scoped.has(id)) continue;
      const bound = this.#container.isBound(id);
      if (!bound && inversifyName(id) === this.#missing) return [...path, id];
      // A class bound to itself (or the unbound root's own dependencies) is walked; a token's target is not seen.
      const below = bound ? this.from(id, [...path, id], seen) : undefined;
      if (below !== undefined) return below;
    }
    return undefined;
  }

  /** The ids `cls` injects by plain constructor or property injection; none when its metadata cannot be read. */
  #injectedIds(cls: ServiceIdentifier): ServiceIdentifier[] {
    try {
      const metadata = getClassMetadata(cls as new () => unknown);
      const ids: ServiceIdentifier[] = [];
      for (const element of [...metadata.constructorArguments, ...metadata.properties.values()]) {
        if (element.kind !== ClassElementMetadataKind.singleInjection || element.optional) continue;
        // A named or tagged injection may miss its binding while the id is bound: not judged here.
        if (element.name !== undefined || element.tags.size > 0) continue;
        if (typeof element.value !== 'object') ids.push(element.value);
      }
      return ids;
    } catch {
      return [];
    }
  }
}

/** A service id as inversify's messages write it (a symbol as `Symbol(description)`). */
function inversifyName(id: ServiceIdentifier): string {
  return typeof id === 'function' ? id.name : id.toString();
}
