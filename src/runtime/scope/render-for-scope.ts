import { MarkdownSection } from '../../prompt/markdown-section.js';
import { SectionVisibilityOverride } from '../../prompt/section-visibility.js';
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
  adapter: ProviderAdapter | undefined,
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

/** A direct call's render, with everything it was rendered from. */
interface DirectRender {
  readonly prompt: Prompt;
  readonly params: EvaluateOptions['params'];
  readonly overrides: EvaluateOptions['overrides'];
  readonly visibility: EvaluateOptions['visibility'];
  readonly toolsRevision: number;
  /** The session's section visibility overrides (a list replaced on every change). */
  readonly opened: readonly SectionVisibilityOverride[];
  readonly render: ScopeRender;
}

/** The last direct call's render, by session. */
const directRenders = new WeakMap<Session, DirectRender>();

/** Whether a prompt renders from its params alone, by prompt (see {@link renderForDirectCall}). */
const rendersFromParams = new WeakMap<Prompt, boolean>();

/**
 * {@link renderForScope} for a call made outside the model loop (`callTool`,
 * an MCP client's call) on `session`: the previous direct call's render on
 * that session again when nothing it was rendered from changed — the same
 * prompt, the same `params`, `overrides` and `visibility` objects, the same
 * `toolsRevision`, the same sections opened in the session — and the prompt
 * renders from its params alone (no section has an `enabled` predicate,
 * which may read the session or anything else, and every section is a
 * `MarkdownSection`, whose text is its template filled from the params).
 * Rendering was about a sixth of such a call. @internal
 */
export function renderForDirectCall(
  prompt: Prompt,
  options: Pick<EvaluateOptions, 'params' | 'overrides' | 'visibility'>,
  session: Session,
): ScopeRender {
  if (!rendersFromParamsAlone(prompt))
    return renderForScope(prompt, undefined, options, session, true);
  const opened = session.slice(SectionVisibilityOverride).all();
  const toolsRevision = prompt.toolsRevision;
  const last = directRenders.get(session);
  if (
    last?.prompt === prompt &&
    last.params === options.params &&
    last.overrides === options.overrides &&
    last.visibility === options.visibility &&
    last.toolsRevision === toolsRevision &&
    last.opened === opened
  ) {
    return last.render;
  }
  const render = renderForScope(prompt, undefined, options, session, true);
  directRenders.set(session, {
    prompt,
    params: options.params,
    overrides: options.overrides,
    visibility: options.visibility,
    toolsRevision,
    opened,
    render,
  });
  return render;
}

function rendersFromParamsAlone(prompt: Prompt): boolean {
  let alone = rendersFromParams.get(prompt);
  if (alone === undefined) {
    alone = prompt.registry.nodes.every(
      ({ section }) =>
        section.enabled === undefined &&
        section instanceof MarkdownSection &&
        section.renderBody === MarkdownSection.prototype.renderBody,
    );
    rendersFromParams.set(prompt, alone);
  }
  return alone;
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
