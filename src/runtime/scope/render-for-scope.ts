import type { ProviderAdapter } from '../../provider/provider-adapter.js';
import { type ToolSpec, toolSpecOf } from '../../provider/tool-spec.js';
import type { Prompt } from '../../prompt/prompt.js';
import type { RenderedPrompt } from '../../prompt/rendered-prompt.js';
import type { Session } from '../../session/session.js';
import type { EvaluateOptions } from '../evaluate-options.js';

/** The prompt as an evaluation renders it, and its tools as the adapter offers them. @internal */
export interface ScopeRender {
  readonly rendered: RenderedPrompt;
  readonly toolSpecs: readonly ToolSpec[];
}

/**
 * Renders `prompt` for an evaluation on `session` and chooses each tool's
 * schema once: the adapter's (after checking it can offer every tool), or for
 * a call made outside the model loop (`direct`) the standard schema. @internal
 */
export function renderForScope(
  prompt: Prompt,
  adapter: ProviderAdapter,
  options: Pick<EvaluateOptions, 'params' | 'overrides'>,
  session: Session,
  direct: boolean,
): ScopeRender {
  const rendered = prompt.render({ params: options.params, session, overrides: options.overrides });
  if (!direct) adapter.validate(rendered.tools);
  const toolSpecs = Object.freeze(
    rendered.tools.map((tool) => {
      const descriptions = rendered.toolParamDescriptions.get(tool.name);
      return direct ? toolSpecOf(tool, false, descriptions) : adapter.toolSpec(tool, descriptions);
    }),
  );
  return { rendered, toolSpecs };
}
