import type { Container } from 'inversify';

import type { Clock } from '../core/clock.js';
import { randomId } from '../core/random-id.js';
import type { Prompt } from '../prompt/prompt.js';
import type { ProviderAdapter } from '../provider/provider-adapter.js';
import type { ResourceRegistry } from '../resources/resource-registry.js';
import { Session } from '../session/session.js';
import { savedBudget } from './approval/open-resume.js';
import type { EvaluationState } from './approval/evaluation-state.js';
import type { CallToolOptions } from './call-tool-request.js';
import { onProgressOf } from './call-tool.js';
import type { EvaluateOptions } from './evaluate-options.js';
import { BudgetTracker } from './limits/budget-tracker.js';
import type { PromptResponse } from './prompt-response.js';
import type { DirectConstructions } from './scope/direct-construction.js';
import { EvaluationScope } from './scope/evaluation-scope.js';
import { FollowedSignal } from './scope/followed-signal.js';
import { renderForDirectCall, renderForScope } from './scope/render-for-scope.js';

/** What `AffordanceRuntime` gives every evaluation scope it opens. @internal */
export interface ScopeSource {
  /** The application container. */
  readonly container: Container;
  /** The runtime's source of time. */
  readonly clock: Clock;
  /** The runtime's default resources. */
  readonly resources: ResourceRegistry;
  /** How section classes are built without a container. */
  readonly direct: DirectConstructions;
  /** Runs a nested evaluation (`context.evaluate`) on the enclosing evaluation's adapter. */
  readonly nested: <O>(
    child: Prompt<O>,
    adapter: ProviderAdapter,
    options: EvaluateOptions,
  ) => Promise<PromptResponse<O>>;
}

/**
 * Renders the prompt, checks the adapter can offer its tools, and opens the
 * evaluation's scope (a resumed evaluation's keeps its id and token budget).
 * `direct` is set for `callTool`: no model reads the tools, so their standard
 * schemas apply. @internal
 */
export function openEvaluationScope(
  source: ScopeSource,
  prompt: Prompt,
  adapter: ProviderAdapter,
  options: EvaluateOptions,
  resumed?: EvaluationState,
  direct?: Pick<CallToolOptions, 'onProgress'>,
): EvaluationScope {
  const session = options.session ?? new Session({ clock: source.clock });
  const render = () => renderForScope(prompt, adapter, options, session, direct !== undefined);
  // A direct call on a session the caller keeps may find the previous call's render still valid.
  const { rendered, toolSpecs } =
    direct !== undefined && options.session !== undefined
      ? renderForDirectCall(prompt, options, session)
      : render();
  const deadline = options.deadline;
  const budget = options.budget ?? savedBudget(resumed);
  const budgetTracker =
    options.budgetTracker ?? (budget === undefined ? undefined : new BudgetTracker(budget));
  const registry =
    options.resources === undefined
      ? source.resources
      : source.resources.merge(options.resources, { strict: false });
  return new EvaluationScope({
    root: source.container,
    evaluationId: resumed?.evaluationId ?? randomId(),
    prompt,
    rendered,
    session,
    deadline,
    budgetTracker,
    resources: registry.open(),
    adapter,
    toolSpecs,
    rerender: render,
    evaluate: (child, childOptions = {}) => source.nested(child, adapter, childOptions),
    cancellation: new FollowedSignal([options.signal], deadline),
    resolvableWithoutCall: source.direct.callFreeTest,
    directConstruction: source.direct.lookup,
    onProgress: onProgressOf(direct),
  });
}
