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
  // A fresh probe per plan: `get` skips the onPlan hook when the plan is already
  // cached, and would then resolve. A new container's plan cache is empty.
  const probe = new Container({ parent: container });
  probe.register(StopAfterPlanning);
  for (const scoped of options.placeholders) probe.bind(scoped).toConstantValue(placeholder);
  if (options.bindRoot) probe.bind(id).toSelf();
  try {
    probe.get(id);
  } catch (error) {
    if (error instanceof PlanCaptured) return error.plan;
    throw error;
  }
  throw new Error(
    `affordance internal error: inversify resolved ${serviceIdName(id)} without calling the onPlan hook.`,
  );
}
