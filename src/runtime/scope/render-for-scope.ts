import type { ProviderAdapter } from '../../provider/provider-adapter.js';
import { type ToolSpec, toolSpecOf } from '../../provider/tool-spec.js';
import type { Prompt } from '../../prompt/prompt.js';
import type { RenderedPrompt } from '../../prompt/rendered-prompt.js';
import type { Session } from '../../session/session.js';
import type { ToolDefinition } from '../../tools/tool-definition.js';
import type { EvaluateOptions } from '../evaluate-options.js';

/** The prompt as an evaluation renders it, and its tools as the adapter offers them. @internal */
export interface ScopeRender {
  readonly rendered: RenderedPrompt;
  readonly toolSpecs: readonly ToolSpec[];
}

/** Specs chosen for one tools array, by one adapter (or for direct calls), with one set of descriptions. */
interface ChosenSpecs {
  readonly adapter: ProviderAdapter | undefined;
  readonly descriptions: RenderedPrompt['toolParamDescriptions'];
  readonly specs: readonly ToolSpec[];
}

/**
 * Specs already chosen, by the tools array they were chosen for. Renders that
 * offer the same tools share that array (see `Prompt.render`), so evaluations
 * of one prompt choose, check and freeze their specs once per adapter, not
 * once each.
 */
const chosenSpecs = new WeakMap<readonly ToolDefinition[], ChosenSpecs[]>();

/**
 * Renders `prompt` for an evaluation on `session` and chooses each tool's
 * schema once: the adapter's (after checking it can offer every tool), or for
 * a call made outside the model loop (`direct`) the standard schema. @internal
 */
export function renderForScope(
  prompt: Prompt,
  adapter: ProviderAdapter,
  options: Pick<EvaluateOptions, 'params' | 'overrides' | 'visibility'>,
  session: Session,
  direct: boolean,
): ScopeRender {
  const rendered = prompt.render({
    params: options.params,
    session,
    overrides: options.overrides,
    visibility: options.visibility,
  });
  return { rendered, toolSpecs: specsFor(rendered, direct ? undefined : adapter) };
}

/** The specs of `rendered`'s tools for `adapter` (`undefined`: a direct call's standard schemas). */
function specsFor(
  rendered: RenderedPrompt,
  adapter: ProviderAdapter | undefined,
): readonly ToolSpec[] {
  const { tools, toolParamDescriptions: descriptions } = rendered;
  let known = chosenSpecs.get(tools);
  const found = known?.find(
    (entry) => entry.adapter === adapter && entry.descriptions === descriptions,
  );
  if (found !== undefined) return found.specs;
  adapter?.validate(tools);
  const specs = Object.freeze(
    tools.map((tool) => {
      const fields = descriptions.get(tool.name);
      return adapter === undefined
        ? toolSpecOf(tool, false, fields)
        : adapter.toolSpec(tool, fields);
    }),
  );
  if (known === undefined) {
    known = [];
    chosenSpecs.set(tools, known);
  }
  // A handful of adapters per tools array at most; the oldest goes first past eight.
  if (known.length >= 8) known.shift();
  known.push({ adapter, descriptions, specs });
  return specs;
}
