import type { IncomingMessage, ServerResponse } from 'node:http';

import {
  All,
  Body,
  type CanActivate,
  Controller,
  type DynamicModule,
  Inject,
  Module,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  Req,
  Res,
  type Type,
  UseGuards,
} from '@nestjs/common';

import { ConfigurationError } from '../index.js';
import { McpHttpHandler, type McpHttpHandlerOptions, McpToolServer } from '../mcp/index.js';
import type { McpToolServerOptions } from '../mcp/index.js';
import { AffordanceService } from './affordance-service.js';

/** Options of {@link AffordanceMcpModule.forRoot}. */
export interface AffordanceMcpModuleOptions
  extends Omit<McpToolServerOptions, 'runtime' | 'callTool'>, McpHttpHandlerOptions {
  /** The route of the Streamable HTTP endpoint, e.g. `mcp`. */
  readonly path: string;
  /**
   * Nest guards run before every request to the endpoint, as `@UseGuards()`
   * would on a controller of yours (e.g. `[ApiKeyGuard]`): a request a guard
   * refuses never reaches the MCP handler. A guard class is built by Nest in
   * this module, so what it injects must be provided globally (a `@Global()`
   * module). Global guards (`APP_GUARD`) apply as well; the handler's own
   * `authorize` hook is the alternative without Nest.
   */
  readonly guards?: readonly (Type<CanActivate> | CanActivate)[] | undefined;
}

const MCP_MODULE_OPTIONS = Symbol.for('affordance.mcp-module-options');

/**
 * Serves a prompt's tools over MCP (Streamable HTTP) from a NestJS
 * application, beside `AffordanceModule`: a controller at `path` answers the
 * endpoint's POST, GET and DELETE requests, and each call runs through
 * `AffordanceService.callTool` in the Nest context of the HTTP request that
 * carried it, so request-scoped providers (the caller's identity, a
 * per-request database handle) are built per MCP request. Open MCP sessions
 * are closed when the application stops.
 *
 * @example
 * \@Module({
 *   imports: [
 *     AffordanceModule.forRoot({ adapter: OpenAIAdapter, prompts: [supportPrompt] }),
 *     AffordanceMcpModule.forRoot({ path: 'mcp', prompt: supportPrompt }),
 *   ],
 *   providers: [SupportDeskSection],
 * })
 * export class AppModule {}
 */
@Module({})
export class AffordanceMcpModule {
  /** The module serving `options.prompt`'s tools at `options.path`. */
  static forRoot(options: AffordanceMcpModuleOptions): DynamicModule {
    const path: unknown = options.path;
    if (typeof path !== 'string' || path.trim() === '') {
      throw new ConfigurationError({
        subject: 'AffordanceMcpModule.forRoot',
        problem: `needs the route of the MCP endpoint as path, got ${typeof path === 'string' ? JSON.stringify(path) : typeof path}.`,
        fix: "Pass e.g. `path: 'mcp'` (the endpoint is then POST/GET/DELETE /mcp).",
      });
    }
    return {
      module: AffordanceMcpModule,
      controllers: [mcpController(options.path, options.guards ?? [])],
      providers: [{ provide: MCP_MODULE_OPTIONS, useValue: options }],
    };
  }
}

/** A controller class at `path`, behind `guards`, that hands every request to the module's {@link McpHttpHandler}. */
function mcpController(
  path: string,
  guards: readonly (Type<CanActivate> | CanActivate)[],
): Type<unknown> {
  @Controller(path)
  @UseGuards(...guards)
  class McpEndpointController implements OnApplicationBootstrap, OnModuleDestroy {
    #handler: McpHttpHandler | undefined;

    constructor(
      @Inject(AffordanceService) private readonly affordance: AffordanceService,
      @Inject(MCP_MODULE_OPTIONS) private readonly options: AffordanceMcpModuleOptions,
    ) {}

    onApplicationBootstrap(): void {
      const { affordance, options } = this;
      affordance.prepare(options.prompt);
      const server = new McpToolServer({
        ...options,
        runtime: affordance.runtime,
        callTool: (prompt, request, callOptions, call) =>
          affordance.callTool(prompt, request, { ...callOptions, request: call.httpRequest }),
      });
      this.#handler = new McpHttpHandler(server, options);
    }

    async onModuleDestroy(): Promise<void> {
      await this.#handler?.close();
    }

    @All()
    async handle(
      @Req() req: IncomingMessage,
      @Res() res: ServerResponse,
      @Body() body: unknown,
    ): Promise<void> {
      const handler = this.#handler;
      if (handler === undefined)
        throw new Error('The MCP endpoint is not ready: the application has not bootstrapped yet.');
      await handler.handle(req, res, req.method === 'POST' ? body : undefined);
    }
  }
  return McpEndpointController;
}
