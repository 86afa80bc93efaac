import type { PlanResult } from '@inversifyjs/core';
import { Plugin, type PluginApi } from '@inversifyjs/plugin';
import { Container, type ServiceIdentifier } from 'inversify';

import { serviceIdName } from './service-id-name.js';

/** Carries the plan out of `get`, between planning and resolution. */
class PlanCaptured extends Error {
  constructor(readonly plan: PlanResult) {
    super('affordance: plan captured (internal signal, never surfaces)');
  }
}

/** Aborts every `get` on its container right after inversify has planned it. */
class StopAfterPlanning extends Plugin<Container> {
  load(api: PluginApi): void {
    api.onPlan((_options, result) => {
      throw new PlanCaptured(result);
    });
  }
}

/** What {@link planWithoutResolving} binds in its probe container. @internal */
export interface PlanProbeOptions {
  /** Ids the runtime binds in narrower scopes; bound to a placeholder so planning finds them. */
  readonly placeholders: Iterable<ServiceIdentifier>;
  /** Also bind `id` itself with `toSelf()` in the probe (a class the runtime binds per call). */
  readonly bindRoot: boolean;
}

const placeholder: unknown = Object.freeze({ affordancePlanPlaceholder: true });

/**
 * Inversify's plan for `container.get(id)` as a child scope would make it,
 * without resolving it: no constructor, factory or activation runs and no
 * singleton cache is filled. The plan is made in a fresh child container that
 * is dropped afterwards, so neither `container` nor its plan cache sees it.
 *
 * @throws whatever inversify throws while planning (missing binding, cycle, ...).
 * @internal
 */
export function planWithoutResolving(
  container: Container,
  id: ServiceIdentifier,
  options: PlanProbeOptions,
): PlanResult {
  return new PlanProbe(container, options.placeholders).plan(id, options.bindRoot);
}

/**
 * A throw-away child container that plans services without resolving them
 * (see {@link planWithoutResolving}), for many ids in a row: the placeholders
 * are bound once, and a root bound for its plan is unbound when the next plan
 * starts, so each plan sees the bindings a fresh probe would. Preparing a
 * prompt plans every section class through one probe (a child container and
 * its placeholder bindings per class were most of a first `prepare`). @internal
 */
export class PlanProbe {
  readonly #probe: Container;
  /** The root bound for the last plan: inversify builds a plan's nodes when they are first read, so it stays bound until the next. */
  #bound: ServiceIdentifier | undefined;

  constructor(container: Container, placeholders: Iterable<ServiceIdentifier>) {
    this.#probe = new Container({ parent: container });
    this.#probe.register(StopAfterPlanning);
    for (const scoped of placeholders) this.#probe.bind(scoped).toConstantValue(placeholder);
  }

  /**
   * The plan of `id`, once per id and probe: `get` skips the onPlan hook when
   * the plan is already cached, and would then resolve. `bindRoot` binds `id`
   * itself with `toSelf()` for this plan only (a class the runtime binds per
   * call). Read a plan before asking for the next: its nodes are built lazily.
   */
  plan(id: ServiceIdentifier, bindRoot: boolean): PlanResult {
    if (this.#bound !== undefined) this.#probe.unbind(this.#bound);
    this.#bound = bindRoot ? id : undefined;
    if (bindRoot) this.#probe.bind(id).toSelf();
    try {
      this.#probe.get(id);
    } catch (error) {
      if (error instanceof PlanCaptured) return error.plan;
      throw error;
    }
    throw new Error(
      `affordance internal error: inversify resolved ${serviceIdName(id)} without calling the onPlan hook.`,
    );
  }
}
