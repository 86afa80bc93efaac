import { NativeTool, PromptValidationError, type ToolDefinition } from '../../index.js';
import type { ProviderRequest } from '../../provider/index.js';

/**
 * The AI SDK provider tool ids `NativeTool` types map to, by provider family
 * (a model object's `provider` up to its first dot: `google.generative-ai` and
 * `google.vertex.chat` are `google`). Only ids the tested provider packages
 * read are listed; `AiSdkAdapterOptions.providerTools` maps any other.
 */
const providerToolIds: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  google: {
    web_search: 'google.google_search',
    web_fetch: 'google.url_context',
    code_execution: 'google.code_execution',
    code_interpreter: 'google.code_execution',
    file_search: 'google.file_search',
  },
  groq: { web_search: 'groq.browser_search' },
};

/** A provider tool of the call options: `provider` in specification v3, `provider-defined` in v2. */
export interface AiSdkProviderTool {
  readonly type: 'provider' | 'provider-defined';
  readonly id: `${string}.${string}`;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** Which provider tools an adapter offers: its model's provider and the option's own ids. */
export interface ProviderToolPlan {
  /** The model object's `provider`. */
  readonly provider: string;
  /** `AiSdkAdapterOptions.providerTools`: provider tool ids by `NativeTool` name or type. */
  readonly overrides: Readonly<Record<string, string>>;
}

/** The `NativeTool` types with a provider tool id for `provider`, without options. */
export function knownProviderToolTypes(provider: string): readonly string[] {
  return Object.keys(providerToolIds[familyOf(provider)] ?? {});
}

/** The provider tool id of `tool`: the option's (by name, then type), else the built-in one. */
function providerToolId(tool: NativeTool, plan: ProviderToolPlan): string | undefined {
  const own = plan.overrides[tool.name] ?? plan.overrides[tool.type];
  if (own !== undefined) return own;
  return providerToolIds[familyOf(plan.provider)]?.[tool.type];
}

/**
 * Rejects, before any request, a `NativeTool` this provider has no AI SDK
 * provider tool for.
 * @throws PromptValidationError naming the tool, the provider and the fix.
 */
export function checkProviderTools(tools: readonly ToolDefinition[], plan: ProviderToolPlan): void {
  for (const tool of tools) {
    if (!tool.native) continue;
    if (tool instanceof NativeTool && providerToolId(tool, plan) !== undefined) continue;
    const known = knownProviderToolTypes(plan.provider);
    const type = tool instanceof NativeTool ? tool.type : tool.name;
    throw new PromptValidationError(
      `AiSdkAdapter: no AI SDK provider tool of '${plan.provider}' is known for the native tool ` +
        `'${tool.name}' (type '${type}'); this provider maps ` +
        `${known.length === 0 ? 'none' : known.map((t) => `'${t}'`).join(', ')}. ` +
        `Fix: name its provider tool id in AiSdkAdapterOptions.providerTools ` +
        `({ ${JSON.stringify(tool.name)}: '<provider>.<tool>' }), or remove the NativeTool.`,
      { placeholder: tool.name },
    );
  }
}

/**
 * The request's `NativeTool`s as AI SDK provider tools, their `config` as the
 * tool's arguments (checked by {@link checkProviderTools} before any request).
 */
export function providerTools(
  request: ProviderRequest,
  plan: ProviderToolPlan,
  specificationVersion: string,
): AiSdkProviderTool[] {
  const tools: AiSdkProviderTool[] = [];
  for (const spec of request.tools) {
    const tool = spec.tool;
    if (!(tool instanceof NativeTool)) continue;
    const id = providerToolId(tool, plan);
    if (id === undefined) continue;
    tools.push({
      type: specificationVersion === 'v2' ? 'provider-defined' : 'provider',
      id: id as `${string}.${string}`,
      name: spec.name,
      args: { ...tool.config },
    });
  }
  return tools;
}

function familyOf(provider: string): string {
  const dot = provider.indexOf('.');
  return dot === -1 ? provider : provider.slice(0, dot);
}
