import type { Tool } from '@modelcontextprotocol/sdk/types.js';

import {
  ConfigurationError,
  type JsonSchemaProblem,
  jsonSchemaProblems,
  MarkdownSection,
  type ToolContext,
  ToolDefinition,
  ToolResult,
} from '../index.js';
import { McpClientConnection } from './mcp-client-connection.js';
import type { SkippedMcpTool } from './skipped-mcp-tool.js';
import type { McpToolsSectionOptions } from './mcp-connection-options.js';
import { localToolName, modelDescription } from './mcp-tool-naming.js';
import { toolResultOf } from './tool-result-of.js';

/**
 * A section whose tools are those of an MCP server (a command over stdio, a
 * URL over Streamable HTTP, or any SDK transport). Each server tool becomes a
 * `ToolDefinition` whose params are the tool's JSON Schema (JSON Schema
 * params: compiled by ajv, patterns on the linear-time engine), so the
 * model's arguments are validated before anything is sent; a tool whose
 * schema affordance cannot validate is left out and listed in `skipped`
 * (with `unsupportedSchemas: 'error'`, `connect` fails instead), never
 * trusted blindly. A tool the server runs only as a task is called as one
 * (created, polled within the call's signal, its result read). A call is forwarded with the call's
 * signal (cancelling it on the server) and its progress; the server's result
 * becomes the tool's result, and a server error (`isError`, a protocol error,
 * a dropped connection) reaches the model as a failed result. When the server
 * says its list changed, the section lists again: the next evaluation sees
 * the new tools. `close()` ends the connection: Nest calls it when the
 * module providing the section is destroyed; with inversify, bind the
 * section with an `onDeactivation` hook, or close it when the application stops.
 *
 * @example
 * const weather = await McpToolsSection.connect({
 *   key: 'weather',
 *   server: { command: 'node', args: ['weather-server.js'] },
 * });
 * const prompt = new Prompt({ ns: 'app', key: 'agent', sections: [DeskSection, weather] });
 * // ... when the application stops:
 * await weather.close();
 */
export class McpToolsSection extends MarkdownSection {
  #skipped: readonly SkippedMcpTool[] = [];
  #refreshError: unknown;
  #revision = 0;
  /** The server's name, from its handshake. */
  readonly serverName: string;
  readonly #options: McpToolsSectionOptions;
  readonly #connection: McpClientConnection;
  #tools: readonly ToolDefinition[] = [];
  /** The whole descriptions of tools whose own had to be shortened, by local name. */
  #longDescriptions = new Map<string, string>();
  #refreshing: Promise<void> | undefined;
  /** Another change was announced during the refresh running now. */
  #again = false;

  private constructor(
    options: McpToolsSectionOptions,
    connection: McpClientConnection,
    serverName: string,
    instructions: string,
  ) {
    super({
      key: options.key,
      title: options.title ?? serverName,
      template: options.template ?? instructions.replaceAll('${', '$${'),
    });
    this.#options = options;
    this.#connection = connection;
    this.serverName = serverName;
    // The tools are the server's current list, not the ones the section was built with.
    Object.defineProperty(this, 'tools', { get: () => this.#tools, enumerable: true });
  }

  /**
   * Connects to the server, lists its tools and builds the section.
   * @throws ConfigurationError when the server cannot be reached, or (with
   *   `unsupportedSchemas: 'error'`) a tool's schema cannot be validated.
   */
  static async connect(options: McpToolsSectionOptions): Promise<McpToolsSection> {
    const built: { section?: McpToolsSection } = {};
    const connection = new McpClientConnection(options, () => {
      built.section?.refreshSoon();
    });
    let client;
    try {
      client = await connection.client();
    } catch (error) {
      throw new ConfigurationError({
        subject: `McpToolsSection '${options.key}'`,
        problem: `could not connect to its MCP server: ${error instanceof Error ? error.message : String(error)}`,
        fix: 'Check `server` (the command and its args, or the URL) and that the server starts; try it with the MCP inspector.',
        cause: error,
      });
    }
    const name = client.getServerVersion()?.name ?? options.key;
    const section = new McpToolsSection(options, connection, name, client.getInstructions() ?? '');
    built.section = section;
    try {
      await section.refresh();
    } catch (error) {
      await connection.close();
      throw error;
    }
    return section;
  }

  /** Lists the server's tools again and rebuilds the section's tools from them. */
  async refresh(): Promise<void> {
    const listed = await this.#connection.listTools();
    const tools: ToolDefinition[] = [];
    const skipped: SkippedMcpTool[] = [];
    const previous = this.#longDescriptions;
    this.#longDescriptions = new Map();
    for (const tool of listed) {
      const built = this.#define(tool);
      if (!(built instanceof ToolDefinition)) skipped.push({ name: tool.name, problems: built });
      else if (tools.some((other) => other.name === built.name)) {
        skipped.push({ name: tool.name, problems: [clash(built.name)] });
      } else tools.push(built);
    }
    if (skipped.length > 0 && this.#options.unsupportedSchemas === 'error') {
      this.#longDescriptions = previous;
      throw unsupported(this.#options.key, this.serverName, skipped);
    }
    this.#tools = Object.freeze(tools);
    this.#skipped = Object.freeze(skipped);
    this.#revision += 1;
    if (skipped.length > 0) this.#options.onSkippedTools?.(this.#skipped);
  }

  /** Grows with every refresh: a running evaluation then offers the new list from its next request. */
  override get toolsRevision(): number {
    return this.#revision;
  }

  /** Why the last refresh after a change announced by the server failed; `undefined` once one succeeds. */
  get refreshError(): unknown {
    return this.#refreshError;
  }

  /** Server tools left out by the last refresh, each with its reasons: a schema affordance cannot validate, a clashing name. */
  get skipped(): readonly SkippedMcpTool[] {
    return this.#skipped;
  }

  /** The body, followed by the whole descriptions of the tools whose own had to be shortened. */
  override renderBody(params: unknown): string {
    const body = super.renderBody(params);
    if (this.#longDescriptions.size === 0) return body;
    const lines = [...this.#longDescriptions].map(([name, text]) => `- \`${name}\`: ${text}`);
    return [body, 'The tools in full:', ...lines].filter((part) => part !== '').join('\n');
  }

  /** Closes the connection to the server; calls of its tools fail afterwards. */
  async close(): Promise<void> {
    await this.#connection.close();
  }

  /**
   * Closes the connection when a NestJS module that provides the section is
   * destroyed (`app.close()`): provide it with
   * `{ provide: WEATHER, useFactory: () => McpToolsSection.connect({...}) }`.
   */
  async onModuleDestroy(): Promise<void> {
    await this.close();
  }

  /** Refreshes in the background after the server said its list changed (a failure keeps the old list, see `refreshError`). */
  private refreshSoon(): void {
    if (this.#refreshing !== undefined) {
      this.#again = true;
      return;
    }
    this.#refreshing = this.refresh()
      .then(() => {
        this.#refreshError = undefined;
      })
      .catch((error: unknown) => {
        this.#refreshError = error;
        this.#options.onRefreshError?.(error);
      })
      .finally(() => {
        this.#refreshing = undefined;
        if (this.#again) {
          this.#again = false;
          this.refreshSoon();
        }
      });
  }

  /** The ToolDefinition of a server tool, or the problems that keep it out. */
  #define(tool: Tool): ToolDefinition | JsonSchemaProblem[] {
    const name = localToolName(this.#options.toolPrefix ?? '', tool.name);
    const problems = jsonSchemaProblems(tool.inputSchema);
    if (problems.length > 0) return [...problems];
    const asTask = tool.execution?.taskSupport === 'required';
    const server = this.serverName;
    const connection = this.#connection;
    const description = modelDescription(tool.description ?? tool.title, tool.name);
    if (description.full !== undefined) this.#longDescriptions.set(name, description.full);
    try {
      return new ToolDefinition({
        name,
        description: description.short,
        params: tool.inputSchema,
        readOnly: tool.annotations?.readOnlyHint === true,
        handler: async (values: unknown, context: ToolContext) => {
          const call = { name: tool.name, asTask };
          const result = await forward(connection, server, call, values, context);
          // A list change the call announced is taken up before the model's next request.
          await this.#refreshing;
          return result;
        },
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return [{ pointer: '', keyword: 'tool', message }];
    }
  }
}

/** Sends one validated call to the server and maps what comes back. */
async function forward(
  connection: McpClientConnection,
  server: string,
  { name, asTask }: { readonly name: string; readonly asTask: boolean },
  values: unknown,
  context: ToolContext,
): Promise<ToolResult> {
  // The validated params instance, as the plain JSON the server's schema describes.
  const args = (values === undefined ? {} : JSON.parse(JSON.stringify(values))) as Record<
    string,
    unknown
  >;
  try {
    const result = await connection.callTool({
      name,
      arguments: args,
      signal: context.signal,
      asTask,
      onProgress: (progress) => {
        context.reportProgress(progress);
      },
    });
    return toolResultOf(server, result);
  } catch (error) {
    if (context.signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return ToolResult.error(
      `The MCP server '${server}' failed the call of '${name}' (it may or may not have run): ${message}`,
    );
  }
}

function clash(name: string): JsonSchemaProblem {
  return {
    pointer: '',
    keyword: 'name',
    message: `Another tool of the server has the same local name '${name}'.`,
  };
}

function unsupported(
  key: string,
  server: string,
  skipped: readonly SkippedMcpTool[],
): ConfigurationError {
  const lines = skipped.map(
    (tool) =>
      `'${tool.name}': ${tool.problems.map((p) => `${p.pointer || '/'} ${p.keyword} (${p.message})`).join('; ')}`,
  );
  return new ConfigurationError({
    subject: `McpToolsSection '${key}' (server '${server}')`,
    problem: `has tools it cannot offer safely (input schemas affordance cannot validate, or clashing names): ${lines.join(' | ')}.`,
    fix: "Leave `unsupportedSchemas` at its default ('skip') to leave these tools out (they are listed in `section.skipped`), or simplify the server's schemas.",
  });
}
