import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Observable } from 'rxjs';

import {
  AffordanceRuntime,
  type ApprovalDecision,
  ConfigurationError,
  type EvaluationState,
  type EvaluationStream,
  type EvaluationStreamPart,
  type Prompt,
  type PromptResponse,
  type ToolCallOutcome,
  type ToolCallRequest,
  ProviderAdapter,
} from '../index.js';
import { AffordanceModuleOptions } from './affordance-module-options.js';
import { bindStreamReads } from './bind-stream-reads.js';
import { explainUnprovidedSections } from './explain-unprovided-sections.js';
import type { NestCallToolOptions, NestEvaluateOptions } from './nest-evaluate-options.js';
import { NestSectionBridge } from './nest-section-bridge.js';
import { observeStream } from './observe-stream.js';

/**
 * Evaluates prompts from a Nest application: inject it in a controller and
 * call `evaluate(prompt, { request, input })`, or `stream(...)` for the parts
 * as they happen. Sections that are Nest
 * providers are built by Nest, per tool call, in the request's context.
 *
 * @example
 * \@Post('agent') answer(@Req() request: Request, @Body() body: AskDto) {
 *   return this.affordance.evaluate(supportPrompt, { request, input: body.message });
 * }
 */
@Injectable()
export class AffordanceService implements OnApplicationBootstrap {
  /** The affordance runtime (its inversify container is `runtime.container`). */
  readonly runtime: AffordanceRuntime;
  /** The module's provider adapter. */
  readonly adapter: ProviderAdapter;
  readonly #bridge: NestSectionBridge;
  readonly #options: AffordanceModuleOptions;
  readonly #prepared = new WeakSet<Prompt>();

  constructor(
    runtime: AffordanceRuntime,
    adapter: ProviderAdapter,
    bridge: NestSectionBridge,
    @Inject(AffordanceModuleOptions) options: AffordanceModuleOptions,
  ) {
    this.runtime = runtime;
    this.adapter = adapter;
    this.#bridge = bridge;
    this.#options = options;
  }

  onApplicationBootstrap(): void {
    this.prepare(...(this.#options.prompts ?? []));
  }

  /**
   * Checks, without building anything, that every section of each prompt can
   * be resolved (by Nest when a module provides it, by affordance otherwise)
   * and that no singleton captures an evaluation's values. Runs before a
   * prompt's first evaluation, and at startup for the module's `prompts`.
   * @throws ConfigurationError naming the section, what is missing and how to provide it.
   */
  prepare(...prompts: Prompt[]): void {
    this.#bridge.assertDiscovered('AffordanceService');
    for (const prompt of prompts) {
      if (this.#prepared.has(prompt)) continue;
      try {
        this.runtime.prepare(prompt);
      } catch (error) {
        if (!ConfigurationError.is(error)) throw error;
        throw (
          explainUnprovidedSections(
            this.runtime,
            prompt,
            (cls) => this.#bridge.sectionOf(cls) !== undefined,
            error,
          ) ?? error
        );
      }
      this.#prepared.add(prompt);
    }
  }

  /**
   * Evaluates `prompt` with the module's adapter (see `AffordanceRuntime.evaluate`).
   * Request- and transient-scoped sections resolve in the Nest context of
   * `options.request` (or `options.contextId`); nested evaluations started by
   * a tool keep that context.
   */
  async evaluate<O>(
    prompt: Prompt<O>,
    options: NestEvaluateOptions = {},
  ): Promise<PromptResponse<O>> {
    this.prepare(prompt);
    const { request, contextId, ...evaluateOptions } = options;
    const context = this.#bridge.contextFor(request, contextId);
    return await this.#bridge.run(context, () => this.runtime.evaluate(prompt, evaluateOptions));
  }

  /**
   * Continues an evaluation of `prompt` that paused for approval (see
   * `AffordanceRuntime.resume`), with the module's adapter: `state` is the
   * paused response's `interruption.state` (e.g. taken back from the
   * injected `EvaluationStateStore`), `decisions` one per pending call, and
   * `options.session` must be the session the evaluation ran with, at the
   * version it paused at; pass the same `params`. Sections resolve in the
   * Nest context of `options.request` (or `options.contextId`), as with
   * {@link AffordanceService.evaluate}: the request that brings the
   * decisions, so the calls that run now see that request's request-scoped
   * providers, not those of the request that paused.
   * @throws EvaluationStateError, before anything runs, when the runtime refuses the
   *   state or the decisions (altered, stale or already resumed, another prompt,
   *   provider or session, changed tools, decisions that do not match the pending calls);
   *   the state is unchanged and can be resumed once the problem is fixed.
   * @throws ConfigurationError when the application is not initialised or a section of
   *   `prompt` cannot be resolved.
   *
   * @example
   * const state = await this.states.take(stateId); // the injected EvaluationStateStore
   * const response = await this.affordance.resume(supportPrompt, state, decisions, { request, session });
   */
  async resume<O>(
    prompt: Prompt<O>,
    state: EvaluationState,
    decisions: readonly ApprovalDecision[],
    options: Omit<NestEvaluateOptions, 'resume'> = {},
  ): Promise<PromptResponse<O>> {
    this.prepare(prompt);
    const { request, contextId, ...evaluateOptions } = options;
    const context = this.#bridge.contextFor(request, contextId);
    return await this.#bridge.run(context, () =>
      this.runtime.resume(prompt, state, decisions, evaluateOptions),
    );
  }

  /**
   * Streams the evaluation of `prompt` with the module's adapter (see
   * `AffordanceRuntime.stream`): iterate it with `for await`, or call
   * `cancel()`. Sections resolve in the Nest context of `options.request` (or
   * `options.contextId`), as with {@link AffordanceService.evaluate}: the
   * evaluation starts on the first read, and every read enters that context,
   * so its tool calls and nested evaluations run in it whoever reads the stream.
   * With `options.resume: { state, decisions }` (and the evaluation's
   * `session`) it streams the rest of a paused evaluation, as
   * {@link AffordanceService.resume} returns it; a refused resume ends the
   * stream with one `error` part holding the `EvaluationStateError`.
   * @throws ConfigurationError at once, before any part, when the application
   * is not initialised or a section of `prompt` cannot be resolved.
   *
   * For a server-sent events endpoint, {@link AffordanceService.observe} gives
   * the same parts as an Observable that cancels on unsubscribe.
   */
  stream<O>(prompt: Prompt<O>, options: NestEvaluateOptions = {}): EvaluationStream<O> {
    this.prepare(prompt);
    const { request, contextId, ...evaluateOptions } = options;
    const held = this.#bridge.hold(this.#bridge.contextFor(request, contextId));
    return bindStreamReads(this.runtime.stream(prompt, evaluateOptions), held.enter, held.release);
  }

  /**
   * Streams the evaluation of `prompt` as {@link AffordanceService.stream}
   * does, as a cold Observable of its parts, for an `@Sse()` endpoint: each
   * subscription runs its own evaluation, and unsubscribing before the end
   * cancels it, as `stream.cancel()` would (Nest unsubscribes when the client
   * disconnects), so an evaluation nobody listens to stops without the
   * application doing anything. Map each part to plain JSON before sending it.
   * @throws ConfigurationError at once, before any subscription, when the
   * application is not initialised or a section of `prompt` cannot be resolved.
   *
   * @example
   * \@Sse('chat') chat(@Req() request: Request, @Query() query: ChatQuery): Observable<MessageEvent> {
   *   return this.affordance
   *     .observe(chatPrompt, { request, input: query.message })
   *     .pipe(map((part) => ({ data: toJson(part) })));
   * }
   */
  observe<O>(
    prompt: Prompt<O>,
    options: NestEvaluateOptions = {},
  ): Observable<EvaluationStreamPart<O>> {
    this.prepare(prompt);
    return observeStream(() => this.stream(prompt, options));
  }

  /**
   * Runs one call of one of `prompt`'s tools outside the model loop (see
   * `AffordanceRuntime.callTool`), with sections resolved in the Nest context
   * of `options.request` (or `options.contextId`): what the MCP mounting does
   * for each call it receives.
   */
  async callTool(
    prompt: Prompt,
    request: ToolCallRequest,
    options: NestCallToolOptions = {},
  ): Promise<ToolCallOutcome> {
    this.prepare(prompt);
    const { request: httpRequest, contextId, ...callOptions } = options;
    const context = this.#bridge.contextFor(httpRequest, contextId);
    return await this.#bridge.run(context, () =>
      this.runtime.callTool(prompt, request, callOptions),
    );
  }
}
