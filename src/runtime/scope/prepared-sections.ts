import type { Container, ServiceIdentifier } from 'inversify';

import { Prompt } from '../../prompt/prompt.js';
import { RenderedPrompt } from '../../prompt/rendered-prompt.js';
import { Session } from '../../session/session.js';
import { ToolContext } from '../../tools/tool-context.js';
import { BudgetTracker } from '../limits/budget-tracker.js';
import { Deadline } from '../limits/deadline.js';
import { assertScopesReached } from './assert-scopes.js';
import type { ScopedServiceIds } from './check-scopes.js';
import { DirectConstructions } from './direct-construction.js';
import { EvaluationId, ToolCallId, ToolCallSignal } from './tokens.js';

/** What the runtime binds per evaluation and per tool call (see `EvaluationScope`). */
const scopedServiceIds: ScopedServiceIds = {
  evaluation: [EvaluationId, Prompt, RenderedPrompt, Session, Deadline, BudgetTracker],
  call: [ToolContext, ToolCallId, ToolCallSignal],
};

/**
 * The section classes of the prompts a runtime prepared: each prompt's wiring
 * and scopes checked once, and how each section class is built per call
 * without a container where it can be (`direct`). @internal
 */
export class PreparedSections {
  /** Which section classes inject no call value, and how to build each without a container. */
  readonly direct: DirectConstructions;
  readonly #container: Container;
  readonly #prepared = new WeakSet<Prompt>();

  constructor(container: Container) {
    this.#container = container;
    this.direct = new DirectConstructions(container, scopedServiceIds);
  }

  /** See `AffordanceRuntime.prepare`: each prompt once. */
  prepare(prompts: readonly Prompt[]): void {
    for (const prompt of prompts) {
      if (this.#prepared.has(prompt)) continue;
      const roots = prompt.sectionClasses as ServiceIdentifier[];
      // One plan per section class, for both the wiring check and the scopes it reaches.
      const reachedBy = assertScopesReached(this.#container, roots, scopedServiceIds, {
        bindUnboundRoots: true,
      });
      for (const root of roots) {
        // Every section class is built with `new` and its planned arguments where the application did
        // not bind it itself (a fraction of a container's resolution), planned on its first call.
        this.direct.add(root as object, reachedBy.get(root)?.has('call') === false);
      }
      this.#prepared.add(prompt);
    }
  }
}
