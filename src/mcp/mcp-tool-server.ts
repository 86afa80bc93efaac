import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';

import {
  ConfigurationError,
  type RenderedPrompt,
  SectionVisibilityOverride,
  Session,
  type ToolDefinition,
  type ToolProgress,
} from '../index.js';
import { quotedName, toolSpecOf } from '../provider/index.js';
import { callResult, thrownResult } from './mcp-call-result.js';
import { outputSchemaOf, typedRefs, withStructuredContent } from './mcp-tool-schemas.js';
import type { McpCallContext, McpToolServerOptions } from './mcp-tool-server-options.js';

/** The JSON-RPC error code of a call of a tool the server does not list (MCP specification, tools). */
const invalidParams = -32602;

/** What a call handler receives from the SDK (the parts used here). */
interface CallExtra {
  readonly signal: AbortSignal;
  readonly sessionId?: string | undefined;
  readonly _meta?: { readonly progressToken?: string | number | undefined } | undefined;
  readonly sendNotification: (notification: {
    method: 'notifications/progress';
    params: {
      progressToken: string | number;
      progress: number;
      total?: number | undefined;
      message?: string | undefined;
    };
  }) => Promise<void>;
}

/**
 * Serves a prompt's tools over the Model Context Protocol, with the official
 * SDK (`@modelcontextprotocol/sdk`, an optional peer, loaded on first use).
 * The tool list is the prompt's enabled tools with the JSON Schemas an
 * evaluation sends; each call runs through `runtime.callTool`, so it is
 * validated, gated by policies, rolled back on failure and recorded as a
 * `ToolInvoked` in the connection's session. A tool's failure is an `isError`
 * result the client's model reads, never a protocol error; a call of a tool
 * the server does not list is the JSON-RPC error -32602 the MCP specification
 * gives (its message quotes the name, cut to 100 characters). Input schemas
 * carry a `type` beside every `$ref`; a tool with a declared result class
 * (with class-validator decorators) declares it as `outputSchema` and returns
 * its value as `structuredContent`. A client's
 * cancellation aborts the call's signal; `context.reportProgress` becomes
 * progress notifications when the client asked for them; when a call changes
 * which tools are enabled, the client is told the list changed.
 *
 * Serve it with {@link serveMcpStdio}, {@link McpHttpHandler} (Streamable
 * HTTP), or `AffordanceMcpModule` in a NestJS application.
 *
 * @example
 * const server = new McpToolServer({ runtime, prompt: supportPrompt });
 * await serveMcpStdio(server);
 */
export class McpToolServer {
  /** The options it was built with. */
  readonly options: McpToolServerOptions;
  /** Names of the tools the chosen sections contribute (`undefined`: every tool). */
  readonly #chosen: ReadonlySet<string> | undefined;
  /** The prompt's tools that run locally (enabled or not), by name. */
  #offered: ReadonlyMap<string, ToolDefinition>;
  /** The prompt's `toolsRevision` {@link McpToolServer.#offered} was built at. */
  #offeredRevision: number;
  /** The HTTP request being handled, for the calls it carries (see {@link McpToolServer.handleHttp}). */
  readonly #httpRequests = new AsyncLocalStorage<IncomingMessage>();
  /** Whether no section of the prompt has an `enabled` predicate: its list changes only with its tools or opened sections. */
  readonly #withoutPredicates: boolean;
  /** HTTP requests whose response is still open. */
  #httpInFlight = 0;

  constructor(options: McpToolServerOptions) {
    this.options = options;
    this.#chosen = chosenTools(options);
    this.#offered = offeredTools(options.prompt.allTools);
    this.#offeredRevision = options.prompt.toolsRevision;
    this.#withoutPredicates = options.prompt.registry.nodes.every(
      (node) => node.section.enabled === undefined,
    );
    options.runtime.prepare(options.prompt);
  }

  /**
   * Runs `handle` with `req` as the HTTP request of the calls it carries
   * (`McpCallContext.httpRequest`), until `res` closes: as long as its calls
   * can answer, whenever `handle` returns. On Node 20 the storage that carries
   * the request turns on promise hooks for the whole process while enabled,
   * so it is disabled whenever no response is open. @internal
   */
  handleHttp(
    req: IncomingMessage,
    res: ServerResponse,
    handle: () => Promise<void>,
  ): Promise<void> {
    // A response already closed emits no more 'close': its calls could not answer anyway.
    if (res.destroyed) return handle();
    this.#httpInFlight += 1;
    res.once('close', () => {
      this.#httpInFlight -= 1;
      if (this.#httpInFlight === 0) this.#httpRequests.disable();
    });
    return this.#httpRequests.run(req, handle);
  }

  /**
   * A new SDK `McpServer` for one connection, with its own affordance
   * session (its low-level `server` answers the tool requests); connect it to
   * a transport with `server.connect(transport)`.
   */
  async createServer(): Promise<McpServer> {
    const sdk = await import('@modelcontextprotocol/sdk/server/mcp.js');
    const types = await import('@modelcontextprotocol/sdk/types.js');
    const options = this.options;
    const server = new sdk.McpServer(
      { name: options.name ?? options.prompt.key, version: options.version ?? '0.0.0' },
      { capabilities: { tools: { listChanged: true } } },
    );
    let session: Promise<Session> | undefined;
    let opened: Session | undefined;
    const sessionOf = (sessionId: string | undefined): Promise<Session> =>
      (session ??= Promise.resolve(options.session?.({ sessionId }) ?? new Session()).then(
        (made) => (opened = made),
      ));
    // What the client was last told: the names it listed, and what they were rendered from.
    let listed: string | undefined;
    let listedFrom: ListedFrom | undefined;
    server.server.setRequestHandler(types.ListToolsRequestSchema, async (_request, extra) => {
      const current = await sessionOf(extra.sessionId);
      const rendered = this.#render(current);
      const tools = this.#toolsOf(rendered);
      listed = tools.map((tool) => tool.name).join('\n');
      listedFrom = this.#listedFrom(rendered, current);
      return { tools };
    });
    server.server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
      // Once the connection's session is there, a call waits for nothing before it runs.
      const current = opened ?? (await sessionOf(extra.sessionId));
      const result = await this.#call(request.params, extra, current);
      // Only a client that listed the tools is told the list changed.
      if (listed === undefined || this.#sameList(listedFrom, current)) return result;
      const rendered = this.#render(current);
      const before = listedFrom?.tools;
      listedFrom = this.#listedFrom(rendered, current);
      // A render that offers the very tools listed (a prompt shares them between renders) changed nothing.
      if (rendered.tools === before) return result;
      const names = this.#served(rendered.tools)
        .map((tool) => tool.name)
        .join('\n');
      if (names !== listed) {
        listed = names;
        server.sendToolListChanged();
      }
      return result;
    });
    return server;
  }

  /** What a list rendered now for `session` is rendered from. */
  #listedFrom(rendered: RenderedPrompt, session: Session): ListedFrom {
    return {
      tools: rendered.tools,
      toolsRevision: this.options.prompt.toolsRevision,
      opened: session.slice(SectionVisibilityOverride).all(),
    };
  }

  /**
   * Whether the list rendered from `listed` is the list now, without
   * rendering: the prompt's tools are the same (`toolsRevision`), no section
   * was opened or summarized in the session since, and no section's `enabled`
   * predicate (which may read the session or anything else) could disable one.
   */
  #sameList(listed: ListedFrom | undefined, session: Session): boolean {
    return (
      this.#withoutPredicates &&
      listed?.toolsRevision === this.options.prompt.toolsRevision &&
      listed.opened === session.slice(SectionVisibilityOverride).all()
    );
  }

  /** The tools a client lists now, for the connection whose session is `session`. */
  listTools(session: Session): Tool[] {
    return this.#toolsOf(this.#render(session));
  }

  #render(session: Session): RenderedPrompt {
    return this.options.prompt.render({ params: this.options.params, session });
  }

  /** The tools of `rendered` this server serves, as a client lists them. */
  #toolsOf(rendered: RenderedPrompt): Tool[] {
    return this.#served(rendered.tools).map((tool) => {
      const spec = toolSpecOf(tool, false, rendered.toolParamDescriptions.get(tool.name));
      const outputSchema = outputSchemaOf(tool);
      return {
        name: spec.name,
        description: spec.description,
        inputSchema: typedRefs(spec.parameters) as Tool['inputSchema'],
        ...(outputSchema === undefined ? {} : { outputSchema }),
        annotations: { readOnlyHint: tool.readOnly },
      };
    });
  }

  #served(tools: readonly ToolDefinition[]): readonly ToolDefinition[] {
    const chosen = this.#chosen;
    return tools.filter((tool) => !tool.native && (chosen === undefined || chosen.has(tool.name)));
  }

  async #call(
    params: { name: string; arguments?: Record<string, unknown> | undefined },
    extra: CallExtra,
    session: Session,
  ): Promise<CallToolResult> {
    const options = this.options;
    // With every section served, a tool of the prompt goes straight to the runtime, which
    // refuses a disabled one itself; otherwise the served list is checked (one more render).
    const tool = this.#offeredTool(params.name);
    if (this.#chosen !== undefined || tool === undefined) {
      const rendered = this.#render(session);
      const served = this.#served(rendered.tools);
      if (!served.some((tool) => tool.name === params.name)) {
        const names = served.map((tool) => tool.name).join(', ');
        // The MCP specification answers a call of a tool the server does not list with the
        // JSON-RPC error -32602 (Invalid params); the SDK sends `code` and `message` as they are.
        throw Object.assign(
          new Error(
            `Unknown tool ${quotedName(params.name)}. The tools of this server are: ${names}.`,
          ),
          { code: invalidParams },
        );
      }
    }
    const call: McpCallContext = {
      sessionId: extra.sessionId,
      httpRequest: this.#httpRequests.getStore(),
      session,
    };
    const token = extra._meta?.progressToken;
    const given =
      (options.callOptions === undefined ? undefined : await options.callOptions(call)) ?? {};
    const callOptions = Object.assign({}, given, {
      session,
      params: options.params,
      signal:
        given.signal === undefined ? extra.signal : AbortSignal.any([given.signal, extra.signal]),
      onProgress: token === undefined ? undefined : progressSender(extra, token),
    });
    const request = { name: params.name, arguments: params.arguments ?? {} };
    try {
      const outcome = await (options.callTool === undefined
        ? options.runtime.callTool(options.prompt, request, callOptions)
        : options.callTool(options.prompt, request, callOptions, call));
      const result = callResult(outcome);
      return tool?.resultType === undefined
        ? result
        : await withStructuredContent(tool, outcome, result);
    } catch (error) {
      return thrownResult(error instanceof Error ? error.message : String(error));
    }
  }

  /** The prompt's local tool called `name` (the map is built again when a section's tools changed). */
  #offeredTool(name: string): ToolDefinition | undefined {
    const revision = this.options.prompt.toolsRevision;
    if (revision !== this.#offeredRevision) {
      this.#offered = offeredTools(this.options.prompt.allTools);
      this.#offeredRevision = revision;
    }
    return this.#offered.get(name);
  }
}

/** What a connection's tool list was rendered from. */
interface ListedFrom {
  readonly tools: readonly ToolDefinition[];
  readonly toolsRevision: number;
  /** The session's section visibility overrides (a list replaced on every change). */
  readonly opened: readonly SectionVisibilityOverride[];
}

/** The tools of `tools` that run locally, by name (the first of a name wins). */
function offeredTools(tools: readonly ToolDefinition[]): ReadonlyMap<string, ToolDefinition> {
  const byName = new Map<string, ToolDefinition>();
  for (const tool of tools) if (!tool.native && !byName.has(tool.name)) byName.set(tool.name, tool);
  return byName;
}

/** Sends a tool's progress reports to the client as progress notifications for `token`. */
function progressSender(
  extra: CallExtra,
  token: string | number,
): (progress: ToolProgress) => void {
  return (progress) => {
    // A notification that cannot be sent (the client went away) costs the tool nothing.
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, ...progress },
      })
      .catch(() => undefined);
  };
}

/** The names of the tools of `options.sections`, checked against the prompt's section paths. */
function chosenTools(options: McpToolServerOptions): ReadonlySet<string> | undefined {
  const sections = options.sections;
  if (sections === undefined) return undefined;
  const registry = options.prompt.registry;
  const paths = registry.nodes.map((node) => node.path.join('.'));
  for (const section of sections) {
    if (!paths.includes(section)) {
      throw new ConfigurationError({
        subject: `McpToolServer for prompt '${options.prompt.label}'`,
        problem: `was asked to serve section '${section}', which the prompt does not have.`,
        fix: `Pass section paths of the prompt in \`sections\`: ${paths.join(', ')}.`,
      });
    }
  }
  const within = (path: readonly string[]): boolean =>
    sections.some((section) => {
      const joined = path.join('.');
      return joined === section || joined.startsWith(`${section}.`);
    });
  return new Set(
    registry.tools.filter((entry) => within(entry.path)).map((entry) => entry.tool.name),
  );
}
