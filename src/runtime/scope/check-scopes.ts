import type {
  BindingScope,
  InstanceBindingNode,
  PlanBindingNode,
  PlanServiceNode,
  PlanServiceRedirectionBindingNode,
  ResolvedValueBindingNode,
} from '@inversifyjs/core';
import type { Container, ServiceIdentifier } from 'inversify';

import { PlanProbe } from './plan-without-resolving.js';

/** The narrower scopes of the runtime: one child container per evaluation, one per tool call. */
export type ValueScope = 'evaluation' | 'call';

/** The service ids the runtime binds in each narrower scope (not in the application container). */
export interface ScopedServiceIds {
  /** Bound in each evaluation's child container, e.g. `Session`, `Deadline`. */
  readonly evaluation: readonly ServiceIdentifier[];
  /** Bound in each tool call's child container, e.g. `ToolContext`, `ToolCallId`. */
  readonly call: readonly ServiceIdentifier[];
}

/** Options of {@link checkScopes} and `assertScopes`. */
export interface CheckScopesOptions {
  /**
   * Plan a root class that is not bound as if bound with `toSelf()` in the call
   * scope, the way the runtime binds `@Section` classes the application did not
   * bind, instead of reporting it. Default `false`.
   */
  readonly bindUnboundRoots?: boolean;
}

/** One step of a dependency path, from a root down to a scoped value. */
export interface ScopeHop {
  /** The service id injected at this step. */
  readonly serviceId: ServiceIdentifier;
  /** Scope of the binding inversify chose; absent for scoped values and `toService` redirections. */
  readonly bindingScope?: BindingScope;
  /** The class bound with `.to(Class)`, when it is not the service id itself. */
  readonly implementation?: string;
  /** Set on the last step: the narrower scope whose value is reached. */
  readonly valueScope?: ValueScope;
  /** The property of the previous step's class this step is injected into (property injection). */
  readonly property?: string | symbol;
  /** Position among the bindings of a `@multiInject` service. */
  readonly multiIndex?: number;
}

/** A singleton whose dependencies reach an evaluation- or call-scoped value. */
export interface ScopeLeak {
  readonly kind: 'scope-leak';
  /** The root the path starts from. */
  readonly root: ServiceIdentifier;
  /** The singleton that would keep the first value (also an element of `path`). */
  readonly singleton: ScopeHop;
  /** The scope of the value it reaches. */
  readonly scope: ValueScope;
  /** Root first, scoped value last. */
  readonly path: readonly ScopeHop[];
}

/** A root with no binding visible from the container. */
export interface UnboundRoot {
  readonly kind: 'unbound-root';
  readonly root: ServiceIdentifier;
}

/** A root inversify cannot plan: a missing dependency, ambiguous bindings, a cycle. */
export interface UnplannableRoot {
  readonly kind: 'unplannable-root';
  readonly root: ServiceIdentifier;
  /** Inversify's error; its message names the service and the dependency trace. */
  readonly cause: unknown;
}

/** One problem found by {@link checkScopes}. */
export type ScopeProblem = ScopeLeak | UnboundRoot | UnplannableRoot;

interface Edge {
  readonly node: PlanServiceNode;
  readonly property?: string | symbol;
}

/**
 * Finds, without instantiating anything, every singleton reachable from
 * `roots` whose dependencies reach an evaluation- or call-scoped value (it
 * would keep the first value forever), plus roots that are unbound or cannot
 * be planned. It reads inversify's own plan, made in a throw-away child
 * container where the scoped ids are bound to placeholders, so it sees the
 * bindings resolution would pick: constructor and property injection,
 * `@optional`, `@multiInject`, `@named`/`@tagged` and `when*` constraints,
 * `to`/`toSelf`/`toService`/`toResolvedValue`, parent containers.
 * `toDynamicValue` and `toFactory` bindings are opaque: what they `get` at run
 * time is not seen (and a `toFactory` is cached with the first caller's context).
 */
export function checkScopes(
  container: Container,
  roots: Iterable<ServiceIdentifier>,
  scopes: ScopedServiceIds,
  options: CheckScopesOptions = {},
): ScopeProblem[] {
  return inspectScopes(container, roots, scopes, options).problems;
}

/** What {@link inspectScopes} found: the problems, and the scopes each planned root reaches. @internal */
export interface ScopeInspection {
  readonly problems: ScopeProblem[];
  /** Per root planned, the narrower scopes its dependencies reach (see {@link scopesReachedFrom}). */
  readonly reached: ReadonlyMap<ServiceIdentifier, ReadonlySet<ValueScope>>;
}

/**
 * {@link checkScopes}, and the scopes each root reaches, from one plan per
 * root (planning is most of the cost of preparing a prompt). A root that
 * cannot be planned is a problem and has no entry in `reached`. @internal
 */
export function inspectScopes(
  container: Container,
  roots: Iterable<ServiceIdentifier>,
  scopes: ScopedServiceIds,
  options: CheckScopesOptions = {},
): ScopeInspection {
  const scopeOf = scopeMap(scopes);
  const problems: ScopeProblem[] = [];
  const reached = new Map<ServiceIdentifier, ReadonlySet<ValueScope>>();
  const reportedBindings = new Set<number>();
  let probe: PlanProbe | undefined;
  for (const root of roots) {
    if (scopeOf.has(root) || reached.has(root)) continue;
    const bound = container.isBound(root);
    const bindRoot = !bound && options.bindUnboundRoots === true && typeof root === 'function';
    if (!bound && !bindRoot) {
      problems.push({ kind: 'unbound-root', root });
      continue;
    }
    let rootNode: PlanServiceNode;
    try {
      probe ??= new PlanProbe(container, scopeOf.keys());
      rootNode = probe.plan(root, bindRoot).tree.root;
    } catch (cause) {
      problems.push({ kind: 'unplannable-root', root, cause });
      continue;
    }
    new LeakFinder(root, scopeOf, reportedBindings, problems).visit({ node: rootNode }, []);
    reached.set(root, scopesReachedFrom(rootNode, scopeOf));
  }
  return { problems, reached };
}

function scopeMap(scopes: ScopedServiceIds): Map<ServiceIdentifier, ValueScope> {
  const scopeOf = new Map<ServiceIdentifier, ValueScope>();
  for (const id of scopes.evaluation) scopeOf.set(id, 'evaluation');
  for (const id of scopes.call) scopeOf.set(id, 'call');
  return scopeOf;
}

/** Walks one root's plan tree; plan nodes may be shared, so results are memoised per node. */
class LeakFinder {
  readonly #root: ServiceIdentifier;
  readonly #scopeOf: ReadonlyMap<ServiceIdentifier, ValueScope>;
  readonly #reported: Set<number>;
  readonly #problems: ScopeProblem[];
  readonly #visited = new Set<PlanBindingNode>();
  readonly #scopedPaths = new Map<PlanBindingNode, readonly ScopeHop[] | null>();

  constructor(
    root: ServiceIdentifier,
    scopeOf: ReadonlyMap<ServiceIdentifier, ValueScope>,
    reported: Set<number>,
    problems: ScopeProblem[],
  ) {
    this.#root = root;
    this.#scopeOf = scopeOf;
    this.#reported = reported;
    this.#problems = problems;
  }

  visit(edge: Edge, path: readonly ScopeHop[]): void {
    if (this.#scopeOf.has(edge.node.serviceIdentifier)) return;
    for (const [index, binding] of bindingsOf(edge.node)) {
      const hopPath = [...path, hopOf(edge, binding, index)];
      if (binding.binding.type !== 'ServiceRedirection' && binding.binding.scope === 'Singleton') {
        this.#reportIfLeaking(binding, hopPath);
      }
      if (this.#visited.has(binding)) continue;
      this.#visited.add(binding);
      for (const child of childrenOf(binding)) this.visit(child, hopPath);
    }
  }

  #reportIfLeaking(binding: PlanBindingNode, hopPath: readonly ScopeHop[]): void {
    if (this.#reported.has(binding.binding.id)) return;
    const below = this.#scopedPathBelow(binding);
    if (below === null) return;
    this.#reported.add(binding.binding.id);
    const path = [...hopPath, ...below];
    const last = path[path.length - 1];
    const singleton = hopPath[hopPath.length - 1];
    if (last?.valueScope === undefined || singleton === undefined) return;
    this.#problems.push({
      kind: 'scope-leak',
      root: this.#root,
      singleton,
      scope: last.valueScope,
      path,
    });
  }

  /** The first path from `binding`'s dependencies down to a scoped value, or `null`. */
  #scopedPathBelow(binding: PlanBindingNode): readonly ScopeHop[] | null {
    const known = this.#scopedPaths.get(binding);
    if (known !== undefined) return known;
    // Inversify rejects cycles while planning; this only guards against looping if that changes.
    this.#scopedPaths.set(binding, null);
    const found = this.#searchBelow(binding);
    this.#scopedPaths.set(binding, found);
    return found;
  }

  #searchBelow(binding: PlanBindingNode): readonly ScopeHop[] | null {
    for (const child of childrenOf(binding)) {
      const valueScope = this.#scopeOf.get(child.node.serviceIdentifier);
      if (valueScope !== undefined) {
        return [{ ...edgeFields(child), serviceId: child.node.serviceIdentifier, valueScope }];
      }
      for (const [index, childBinding] of bindingsOf(child.node)) {
        const below = this.#scopedPathBelow(childBinding);
        if (below !== null) return [hopOf(child, childBinding, index), ...below];
      }
    }
    return null;
  }
}

function bindingsOf(node: PlanServiceNode): (readonly [number | undefined, PlanBindingNode])[] {
  const bindings = node.bindings;
  if (bindings === undefined) return [];
  if (Array.isArray(bindings)) return bindings.map((binding, index) => [index, binding] as const);
  return [[undefined, bindings]];
}

function childrenOf(binding: PlanBindingNode): Edge[] {
  switch (binding.binding.type) {
    case 'Instance': {
      const node = binding as InstanceBindingNode;
      const edges: Edge[] = [];
      for (const param of node.constructorParams) {
        if (!('isNoParam' in param)) edges.push({ node: param });
      }
      for (const [property, param] of node.propertyParams) edges.push({ node: param, property });
      return edges;
    }
    case 'ResolvedValue':
      return (binding as ResolvedValueBindingNode).params.map((node) => ({ node }));
    case 'ServiceRedirection':
      return [{ node: (binding as PlanServiceRedirectionBindingNode).redirection }];
    case 'ConstantValue':
    case 'DynamicValue':
    case 'Factory':
      return [];
  }
}

function edgeFields(edge: Edge): Pick<ScopeHop, 'property'> {
  return edge.property === undefined ? {} : { property: edge.property };
}

function hopOf(edge: Edge, binding: PlanBindingNode, multiIndex: number | undefined): ScopeHop {
  const serviceId = edge.node.serviceIdentifier;
  const bound = binding.binding;
  const implementation =
    bound.type === 'Instance' && bound.implementationType !== serviceId
      ? bound.implementationType.name
      : undefined;
  return {
    serviceId,
    ...edgeFields(edge),
    ...(bound.type === 'ServiceRedirection' ? {} : { bindingScope: bound.scope }),
    ...(implementation === undefined ? {} : { implementation }),
    ...(multiIndex === undefined ? {} : { multiIndex }),
  };
}

/**
 * The narrower scopes reached from one node of an inversify plan. A
 * dependency on a `toDynamicValue` or `toFactory` binding is opaque and counts
 * as reaching the call scope (the safe answer). @internal
 */
export function scopesReachedFrom(
  rootNode: PlanServiceNode,
  scopeOf: ReadonlyMap<ServiceIdentifier, ValueScope>,
): Set<ValueScope> {
  const reached = new Set<ValueScope>();
  const visited = new Set<PlanBindingNode>();
  const stack: PlanServiceNode[] = [rootNode];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const scope = scopeOf.get(node.serviceIdentifier);
    if (scope !== undefined) {
      reached.add(scope);
      continue;
    }
    for (const [, binding] of bindingsOf(node)) {
      if (visited.has(binding)) continue;
      visited.add(binding);
      if (binding.binding.type === 'DynamicValue' || binding.binding.type === 'Factory')
        reached.add('call');
      for (const edge of childrenOf(binding)) stack.push(edge.node);
    }
  }
  return reached;
}
