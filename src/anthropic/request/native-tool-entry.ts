import { type NativeTool, PromptValidationError } from '../../index.js';
import { checkNativeToolConfig } from '../../provider/index.js';
import { anthropicNativeContract } from './anthropic-native-contract.js';

/** The Anthropic server tools a `NativeTool` can stand for. */
export type AnthropicServerTool = 'web_search' | 'web_fetch' | 'code_execution';

/** The versioned tool `type` sent when the config names none. */
const defaultVersions: Readonly<Record<AnthropicServerTool, string>> = {
  web_search: 'web_search_20250305',
  web_fetch: 'web_fetch_20250910',
  code_execution: 'code_execution_20250825',
};

/**
 * The server tool a `NativeTool` stands for, or `undefined` when Anthropic
 * has none of its type.
 */
export function serverToolOf(tool: NativeTool): AnthropicServerTool | undefined {
  const type: string = tool.type;
  return type === 'web_search' || type === 'web_fetch' || type === 'code_execution'
    ? type
    : undefined;
}

/**
 * The `tools[]` entry of a native tool: `{ type: <versioned type>, name, ...config }`.
 * The config may choose the version (`{ type: 'web_search_20260209' }`) and
 * sets the tool's own fields (`max_uses`, `allowed_domains`, `user_location`...).
 *
 * @throws PromptValidationError for a type Anthropic does not run, or a
 * config `type` of another tool, or a config field the server tool does
 * not have or of the wrong JSON type (see `anthropicNativeContract`).
 */
export function nativeToolEntry(tool: NativeTool): Record<string, unknown> {
  const kind = serverToolOf(tool);
  if (kind === undefined) {
    throw new PromptValidationError(
      `AnthropicAdapter: native tool '${tool.name}' has type '${tool.type}', which the Anthropic ` +
        "Messages API does not run. Fix: use type 'web_search', 'web_fetch' or 'code_execution', " +
        'or remove the NativeTool from the prompt.',
      { placeholder: tool.name },
    );
  }
  const configured = tool.config['type'];
  if (
    configured !== undefined &&
    !(typeof configured === 'string' && configured.startsWith(kind))
  ) {
    throw new PromptValidationError(
      `AnthropicAdapter: native tool '${tool.name}' (${kind}) sets config.type ${JSON.stringify(configured)}, ` +
        `which is not a version of ${kind}. Fix: use a type such as '${defaultVersions[kind]}', or leave it out.`,
      { placeholder: tool.name },
    );
  }
  checkNativeToolConfig('AnthropicAdapter', tool, anthropicNativeContract);
  // A lone spread, then the fields: the config is the user's.
  const entry: Record<string, unknown> = { ...tool.config };
  entry['type'] = configured ?? defaultVersions[kind];
  entry['name'] = kind;
  return entry;
}
