import {
  ClassElementMetadataKind,
  type ClassElementMetadata,
  type InstanceBindingNode,
  type PlanServiceNode,
} from '@inversifyjs/core';
import type { Container, Newable, ServiceIdentifier } from 'inversify';

import type { RenderedPrompt } from '../../prompt/rendered-prompt.js';
import { ProviderAdapter } from '../../provider/provider-adapter.js';
import { type ScopedServiceIds, scopesReachedFrom, type ValueScope } from './check-scopes.js';
import { hasDeactivationHooks } from './has-deactivation-hooks.js';
import { planWithoutResolving } from './plan-without-resolving.js';

/** Where one constructor argument of a directly constructed section comes from. @internal */
export interface DirectArgument {
  /**
   * `call`: the call's own value for `id`; `evaluation`: `id` resolved in the
   * evaluation scope (its plan reaches an evaluation value); `root`: `id`
   * resolved in the application's container, where its plan (classes and
   * constants only) resolves as it would in the evaluation scope, without
   * building the evaluation's child container.
   */
  readonly from: 'call' | 'evaluation' | 'root';
  readonly id: ServiceIdentifier;
}

/**
 * How to build a `@Section` class for one tool call without a call container:
 * `new sectionClass(...arguments)`, each argument a call value (`ToolContext`,
 * `ToolCallId`, `ToolCallSignal`) or a service resolved in the evaluation
 * scope. A child container per call costs far more than the call itself
 * (inversify links every child's plan cache to its parent's), so the runtime
 * plans this once per class in `prepare`. @internal
 */
export interface DirectConstruction {
  readonly sectionClass: Newable<object>;
  readonly arguments: readonly DirectArgument[];
  /** Builds the section instead, for a class another injector owns (see {@link DirectConstructions.provide}). */
  readonly build?: ((rendered: RenderedPrompt) => object) | undefined;
}

/**
 * Ids the evaluation's child container binds to the evaluation's own value
 * though they are not scoped ids (the application may bind them too, and
 * singletons may inject them): an argument whose plan reaches one is resolved
 * in the evaluation scope, never in the application's container.
 */
const REBOUND_PER_EVALUATION: readonly ServiceIdentifier[] = [ProviderAdapter];

/**
 * The direct construction of `sectionClass`, or `undefined` when only a call
 * container resolves it as inversify would: the application bound the class
 * itself (its binding may carry activation hooks or a scope), or the class has
 * property injection, `@postConstruct`/`@preDestroy`, named, tagged, optional,
 * lazy or multi injections, a dependency below its own constructor that
 * reaches a call value, or a call value the application registered an
 * `onDeactivation` hook for (planned on the class's first call: a hook
 * registered later is not seen).
 * @internal
 */
export function planDirectConstruction(
  container: Container,
  sectionClass: Newable<object>,
  scopes: ScopedServiceIds,
): DirectConstruction | undefined {
  if (container.isBound(sectionClass)) return undefined;
  const scopeOf = new Map<ServiceIdentifier, ValueScope>();
  for (const id of scopes.evaluation) scopeOf.set(id, 'evaluation');
  for (const id of scopes.call) scopeOf.set(id, 'call');
  const evaluationBound = new Map(scopeOf);
  for (const id of REBOUND_PER_EVALUATION) evaluationBound.set(id, 'evaluation');
  let root: PlanServiceNode;
  try {
    root = planWithoutResolving(container, sectionClass, {
      placeholders: scopeOf.keys(),
      bindRoot: true,
    }).tree.root;
  } catch {
    return undefined;
  }
  const binding = root.bindings;
  if (binding === undefined || Array.isArray(binding)) return undefined;
  if (binding.binding.type !== 'Instance') return undefined;
  const node = binding as InstanceBindingNode;
  const metadata = node.classMetadata;
  if (
    node.binding.implementationType !== sectionClass ||
    node.propertyParams.size > 0 ||
    metadata.properties.size > 0 ||
    metadata.lifecycle.postConstructMethodNames.size > 0 ||
    metadata.lifecycle.preDestroyMethodNames.size > 0 ||
    metadata.constructorArguments.length !== node.constructorParams.length
  ) {
    return undefined;
  }
  const args: DirectArgument[] = [];
  for (const [index, element] of metadata.constructorArguments.entries()) {
    const id = plainInjection(element);
    const param = node.constructorParams[index];
    if (id === undefined || param === undefined || 'isNoParam' in param) return undefined;
    if (scopeOf.get(id) === 'call') {
      args.push({ from: 'call', id });
      continue;
    }
    // A dynamic value or factory below counts as reaching the call: nothing shows what it resolves.
    if (scopesReachedFrom(param, scopeOf).has('call')) return undefined;
    const fromRoot = scopesReachedFrom(param, evaluationBound).size === 0;
    args.push({ from: fromRoot ? 'root' : 'evaluation', id });
  }
  // A call container runs the application's onDeactivation hooks of the call values it gave out when
  // the call ends (docs/guide/runtime.md); `new` would skip them, so a hooked value takes that path.
  const callIds = args.filter((argument) => argument.from === 'call').map(({ id }) => id);
  if (callIds.length > 0 && hasDeactivationHooks(container, callIds)) return undefined;
  return { sectionClass, arguments: args };
}

/** The service id of a plain `@inject(id)` argument (no name, tag, optional, lazy id or multi-injection). */
function plainInjection(element: ClassElementMetadata): ServiceIdentifier | undefined {
  if (element.kind !== ClassElementMetadataKind.singleInjection) return undefined;
  if (element.name !== undefined || element.tags.size > 0 || element.optional) return undefined;
  const id = element.value;
  return typeof id === 'object' ? undefined : id;
}

/**
 * The direct constructions of a runtime's section classes, each planned the
 * first time a call asks for it (planning reads inversify's dependency plan:
 * done for every section in `prepare`, it slowed the cold start of a large
 * prompt by a fifth) and kept. @internal
 */
export class DirectConstructions {
  readonly #container: Container;
  readonly #scopes: ScopedServiceIds;
  /** The prepared prompts' section classes: the only classes planned. */
  readonly #sections = new WeakSet();
  /** Those none of whose dependencies is a call value. */
  readonly #callFree = new WeakSet();
  /** What planning found, `null` for a class only a container builds. */
  readonly #planned = new WeakMap<object, DirectConstruction | null>();
  /** {@link DirectConstructions.isCallFree} as a function, made once for every evaluation's scope. */
  readonly callFreeTest = (sectionClass: object): boolean => this.isCallFree(sectionClass);
  /** {@link DirectConstructions.of} as a function, made once for every evaluation's scope. */
  readonly lookup = (sectionClass: object): DirectConstruction | undefined => this.of(sectionClass);

  constructor(container: Container, scopes: ScopedServiceIds) {
    this.#container = container;
    this.#scopes = scopes;
  }

  /** Makes `sectionClass` (a section of a prepared prompt) one to plan on first use. */
  add(sectionClass: object, callFree: boolean): void {
    this.#sections.add(sectionClass);
    if (callFree) this.#callFree.add(sectionClass);
  }

  /** Whether `prepare` found that `sectionClass` injects no call value. */
  isCallFree(sectionClass: object): boolean {
    return this.#callFree.has(sectionClass);
  }

  /**
   * Builds `sectionClass` with `build` (given the evaluation's rendered
   * prompt) for every call, instead of planning it: for a section another
   * injector owns, which the container would reach only through an
   * evaluation's child container (the Nest bridge's sections).
   */
  provide(sectionClass: object, build: (rendered: RenderedPrompt) => object): void {
    this.#planned.set(sectionClass, {
      sectionClass: sectionClass as Newable<object>,
      arguments: [],
      build,
    });
  }

  /** How to build `sectionClass` without a container, planned on the first ask; `undefined` when only one can. */
  of(sectionClass: object): DirectConstruction | undefined {
    const known = this.#planned.get(sectionClass);
    if (known !== undefined) return known ?? undefined;
    if (!this.#sections.has(sectionClass)) return undefined;
    const direct = planDirectConstruction(
      this.#container,
      sectionClass as Newable<object>,
      this.#scopes,
    );
    this.#planned.set(sectionClass, direct ?? null);
    return direct;
  }
}
