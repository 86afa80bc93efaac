import type { DataClass } from '../core/class-type.js';
import { PromptValidationError } from '../core/errors/prompt-validation-error.js';
import { ToolDefinition, type ToolDefinitionInit } from './tool-definition.js';

/**
 * The provider-executed tool types affordance knows how to declare: OpenAI
 * Responses names, and Anthropic's `web_fetch` and `code_execution`
 * (`web_search` serves both).
 */
export type NativeToolType =
  | 'web_search'
  | 'file_search'
  | 'code_interpreter'
  | 'image_generation'
  | 'mcp'
  | 'shell'
  | 'apply_patch'
  | 'web_fetch'
  | 'code_execution';

/** Fields of a {@link NativeTool}. */
export interface NativeToolInit<P = unknown, R = unknown> extends Omit<
  ToolDefinitionInit<P, R>,
  'handler' | 'name' | 'description'
> {
  /** The provider's tool type. */
  readonly type: NativeToolType;
  /** The tool's name in this prompt; defaults to `type`. */
  readonly name?: string | undefined;
  /** What the tool does; defaults to a short description of the type. */
  readonly description?: string | undefined;
  /** Provider configuration of the tool (e.g. `{ search_context_size: 'low' }`), passed through by adapters. */
  readonly config?: Readonly<Record<string, unknown>> | undefined;
}

const defaultDescriptions: Record<NativeToolType, string> = {
  web_search: 'Search the web; executed by the provider.',
  file_search: 'Search the attached vector stores; executed by the provider.',
  code_interpreter: 'Run Python in a provider-hosted sandbox.',
  image_generation: 'Generate or edit images; executed by the provider.',
  mcp: 'Call tools of a remote MCP server; executed by the provider.',
  shell: 'Run shell commands.',
  apply_patch: 'Create, update or delete files with patches.',
  web_fetch: 'Fetch the content of a web page or PDF; executed by the provider.',
  code_execution: 'Run code in a provider-hosted sandbox.',
};

/**
 * A tool the provider executes (web search, file search, code interpreter...).
 * It is declared like any other tool but has no handler; adapters that cannot
 * offer its type reject the prompt at validation time. Its calls still reach
 * the session as `ToolInvoked` events flagged native.
 */
export class NativeTool<P = unknown, R = unknown> extends ToolDefinition<P, R> {
  /** The provider's tool type. */
  readonly type: NativeToolType;
  /** Provider configuration, passed through by adapters. */
  readonly config: Readonly<Record<string, unknown>>;

  constructor(init: NativeToolInit<P, R>) {
    const name = init.name ?? init.type;
    if ((init as { handler?: unknown }).handler !== undefined) {
      throw new PromptValidationError(
        'NativeTool must not set a handler; execution is provider-managed. ' +
          `Remove the handler of tool '${name}', or use a ToolDefinition for a tool you execute yourself.`,
        { paramsType: paramsClass(init.params), placeholder: name },
      );
    }
    // Types outside NativeToolType (newer provider tools, untyped callers) have no default text.
    const description =
      init.description ?? (defaultDescriptions as Partial<Record<string, string>>)[init.type];
    if (description === undefined) {
      throw new PromptValidationError(
        `NativeTool '${name}' of type '${init.type}' has no default description. Pass \`description\`.`,
        { paramsType: paramsClass(init.params), placeholder: 'description' },
      );
    }
    super(Object.assign({}, init, { name, description }));
    this.type = init.type;
    this.config = Object.freeze({ ...(init.config ?? {}) });
  }

  override readonly native: boolean = true;

  protected override defaultAcceptsOverrides(): boolean {
    return false;
  }

  protected override checkHandler(): void {
    // Native tools have no handler by definition; the constructor rejects one.
  }
}

/** The params class of a declaration (a Standard Schema has none), for error fields. */
function paramsClass(params: unknown): DataClass | undefined {
  return typeof params === 'function' ? (params as DataClass) : undefined;
}
