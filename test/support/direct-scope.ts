import type { Container } from 'inversify';

import {
  type AffordanceRuntime,
  type Prompt,
  ResourceRegistry,
  type Session,
} from '../../src/index.js';
import type { RenderedPrompt } from '../../src/prompt/rendered-prompt.js';
import type { ScriptedAdapter } from '../../src/testing/index.js';
import { EvaluationScope } from '../../src/runtime/scope/evaluation-scope.js';

/** What {@link directScope} builds an evaluation scope from. */
export interface DirectScopeParts {
  readonly container: Container;
  readonly runtime: AffordanceRuntime;
  readonly prompt: Prompt;
  readonly rendered: RenderedPrompt;
  readonly session: Session;
  readonly adapter: ScriptedAdapter;
  readonly evaluationId: string;
}

/**
 * An evaluation scope for `prompt` (prepared on `runtime`) without an
 * evaluation around it, as the executor sees one: for driving
 * `invokeToolCall` and `ToolExecutor` directly, in tests and benches.
 */
export function directScope(parts: DirectScopeParts): EvaluationScope {
  const { container, runtime, prompt, rendered, session, adapter, evaluationId } = parts;
  return new EvaluationScope({
    root: container,
    evaluationId,
    prompt,
    rendered,
    session,
    deadline: undefined,
    budgetTracker: undefined,
    resources: new ResourceRegistry().open(),
    adapter,
    toolSpecs: rendered.tools.map((tool) =>
      adapter.toolSpec(tool, rendered.toolParamDescriptions.get(tool.name)),
    ),
    evaluate: (child, options = {}) => runtime.evaluate(child, { adapter, ...options }),
    resolvableWithoutCall: (sectionClass) => runtime.isCallFree(sectionClass),
    directConstruction: (sectionClass) => runtime.directConstruction(sectionClass),
  });
}
