import type { Container } from 'inversify';

import { type Clock, systemClock } from '../core/clock.js';
import { setRuntimeMedia } from './media/runtime-media.js';
import { type ProviderAdapter } from '../provider/provider-adapter.js';
import { boundAdapter } from './bound-adapter.js';
import type { CallToolOptions, ToolCallRequest } from './call-tool-request.js';
import { adapterForCall, runToolCall } from './call-tool.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';
import { nestedPauseError } from './nested-pause-error.js';
import { type Prompt } from '../prompt/prompt.js';
import type { RenderedPrompt } from '../prompt/rendered-prompt.js';
import { ResourceRegistry } from '../resources/resource-registry.js';
import type { EvaluateOptions } from './evaluate-options.js';
import { EvaluationRun } from './evaluation-run.js';
import { EvaluationStream, type PartSink } from './evaluation-stream.js';
import type { ApprovalDecision } from './approval/approval-decision.js';
import { checkResume } from './approval/check-resume.js';
import type { EvaluationState } from './approval/evaluation-state.js';
import type { ResumePoint } from './approval/resume-point.js';
import type { PromptResponse } from './prompt-response.js';
import type { RuntimeOptions } from './runtime-options.js';
import type { DirectConstruction } from './scope/direct-construction.js';
import { PreparedSections } from './scope/prepared-sections.js';
import type { EvaluationScope } from './scope/evaluation-scope.js';
import type {} from './tool-context-members.js';
import { ToolExecutor } from './tool-executor.js';
import { DEFAULT_MAX_ANSWER_CHARS } from '../provider/answer-limit.js';
import { answerLimit, checkNotExpired, checkSeam, positiveInteger } from './runtime-checks.js';
import { StateSigner } from './approval/state-signer.js';
import { alreadyResuming, openResume } from './approval/open-resume.js';
import { openEvaluationScope, type ScopeSource } from './open-evaluation-scope.js';
import { evaluationStart } from './telemetry/evaluation-start.js';
import type { RuntimeTelemetry } from './telemetry/runtime-telemetry.js';
import { LoopGovernor } from './governor/loop-governor.js';
import {
  loopGovernorSettings,
  type LoopGovernorSettings,
} from './governor/loop-governor-options.js';

const DEFAULT_MAX_TURNS = 24;

const DEFAULT_READ_ONLY_CONCURRENCY = 4;

/**
 * The evaluation loop shared by every adapter: render → `PromptRendered` →
 * request → run the tool calls → tool messages → repeat until an answer
 * without tool calls → parse structured output → `PromptExecuted`. Each
 * evaluation runs in its own child container of the application container,
 * and each tool call in a child of that; both are disposed when they end.
 */
export class AffordanceRuntime {
  /** The application container. */
  readonly container: Container;
  /** The most provider requests per evaluation. */
  readonly maxTurns: number;
  /** The most characters of one provider answer (`RuntimeOptions.maxAnswerChars`). */
  readonly maxAnswerChars: number;
  /** Source of time. */
  readonly clock: Clock;
  readonly #executor: ToolExecutor;
  readonly #resources: ResourceRegistry;
  readonly #sections: PreparedSections;
  readonly #signer: StateSigner;
  /** Ids of the saved states being resumed now: a second resume of one waits for no one, it is refused. */
  readonly #resuming = new Set<string>();
  readonly #telemetry: RuntimeTelemetry | undefined;
  readonly #scopes: ScopeSource;
  readonly #governor: LoopGovernorSettings;

  constructor(container: Container, options: RuntimeOptions = {}) {
    this.container = container;
    this.#sections = new PreparedSections(container);
    this.maxTurns = positiveInteger(options.maxTurns ?? DEFAULT_MAX_TURNS, 'maxTurns');
    this.maxAnswerChars = answerLimit(options.maxAnswerChars ?? DEFAULT_MAX_ANSWER_CHARS);
    this.clock = options.clock ?? systemClock;
    this.#resources = options.resources ?? new ResourceRegistry();
    this.#signer = new StateSigner(options);
    this.#telemetry = options.telemetry;
    this.#governor = loopGovernorSettings(options.governor);
    setRuntimeMedia(container, options.media, options.fetchMedia);
    this.#scopes = {
      container,
      clock: this.clock,
      resources: this.#resources,
      direct: this.#sections.direct,
      nested: (child, adapter, nested) => this.#nested(child, adapter, nested),
    };
    this.#executor = new ToolExecutor({
      readOnlyConcurrency: positiveInteger(
        options.readOnlyConcurrency ?? DEFAULT_READ_ONLY_CONCURRENCY,
        'readOnlyConcurrency',
      ),
      clock: this.clock,
    });
  }

  /**
   * Checks, without creating anything, that the `@Section` classes of each
   * prompt can be resolved per tool call and that no singleton they depend on
   * would capture an evaluation's or a call's values (`Session`, `ToolContext`,
   * ...). Runs automatically before a prompt's first evaluation; call it at
   * startup to fail there instead.
   * @throws ConfigurationError listing each problem with its dependency path and fix.
   */
  prepare(...prompts: Prompt[]): void {
    this.#sections.prepare(prompts);
  }

  /**
   * Whether `prepare` found that `sectionClass` injects no call value, so it can
   * be resolved without a per-call container. @internal
   */
  isCallFree(sectionClass: object): boolean {
    return this.#sections.direct.isCallFree(sectionClass);
  }

  /**
   * How a section class of a prepared prompt can be built per call without a
   * container, if it can (planned on its first call). @internal
   */
  directConstruction(sectionClass: object): DirectConstruction | undefined {
    return this.#sections.direct.of(sectionClass);
  }

  /** Builds `sectionClass` with `build` per call, for a section another injector owns (Nest's). @internal */
  provideSection(sectionClass: object, build: (rendered: RenderedPrompt) => object): void {
    this.#sections.direct.provide(sectionClass, build);
  }

  /**
   * Evaluates `prompt`: renders it, asks the provider, runs the tools the model
   * calls and loops until the model answers without tool calls, then parses the
   * structured output. The adapter is `options.adapter`, else the one bound to
   * `ProviderAdapter` in the container. Events land in `options.session` (a new
   * session when omitted). From a tool, nest with `context.evaluate(child, options)`.
   * @throws PromptEvaluationError naming the phase (`request`, `tool`, `response`, `budget`).
   * @throws ConfigurationError when no adapter is given or bound.
   */
  evaluate<O>(prompt: Prompt<O>, options: EvaluateOptions = {}): Promise<PromptResponse<O>> {
    // Not an async function itself: a live evaluation holds one suspended frame less.
    return this.#run(prompt, options, undefined);
  }

  /**
   * Evaluates `prompt` as {@link AffordanceRuntime.evaluate} does (the same
   * loop, events and rules), yielding what happens as it happens: text and
   * reasoning deltas, tool calls as they start and as they are recorded,
   * usage, and the final `answer` (or one `error`). The adapter streams when
   * its `capabilities.streaming` says so; otherwise each turn arrives whole.
   * Nothing runs until the stream is read; leaving the `for await` loop early
   * cancels the evaluation. See {@link EvaluationStream}.
   *
   * @example
   * for await (const part of runtime.stream(prompt, { input: 'Plan my week.' })) {
   *   if (part.type === 'text-delta') process.stdout.write(part.delta);
   *   else if (part.type === 'tool-call-end') console.log(part.event.name, part.message);
   *   else if (part.type === 'error') throw part.error;
   * }
   */
  stream<O>(prompt: Prompt<O>, options: EvaluateOptions = {}): EvaluationStream<O> {
    return new EvaluationStream<O>((sink, signal) => {
      const signals = options.signal === undefined ? [signal] : [options.signal, signal];
      return this.#run(
        prompt,
        Object.assign({}, options, { signal: AbortSignal.any(signals) }),
        sink,
      );
    });
  }

  /**
   * Continues an evaluation that paused for approval (`response.status ===
   * 'interrupted'`): the calls before the pause stay as they were recorded,
   * each pending call runs (approved) or fails with outcome `denied` and the
   * person's message (rejected), the rest of its turn runs, and the loop goes
   * on as if it had never stopped; the session records the events an
   * uninterrupted run would have. It may pause again. Pass the session the
   * evaluation ran with (at the version it paused at) and the same params;
   * the prompt must offer the same tools.
   *
   * Deadlines: a deadline in `options` bounds this resumed run only; the time
   * spent waiting for the person never counts. The token budget the
   * evaluation started with (and the usage so far) carries over unless
   * `options.budget` gives another.
   * @throws EvaluationStateError, before anything runs or is recorded, when the state is unsigned
   *   (see `stateSecret`) or altered, is stale, belongs to another prompt, provider or session,
   *   the prompt's tools changed, or the decisions do not decide exactly the pending calls.
   *
   * @example
   * const paused = await runtime.evaluate(prompt, { session, input });
   * if (paused.status === 'interrupted') {
   *   const saved = JSON.stringify(paused.interruption.state);
   *   // ... later, maybe in another process, after a person decided:
   *   const done = await runtime.resume(prompt, JSON.parse(saved), [{ callId, approved: true }], { session });
   * }
   */
  async resume<O>(
    prompt: Prompt<O>,
    state: EvaluationState,
    decisions: readonly ApprovalDecision[],
    options: Omit<EvaluateOptions, 'resume'> = {},
  ): Promise<PromptResponse<O>> {
    return await this.evaluate(
      prompt,
      Object.assign({}, options, { resume: { state, decisions } }),
    );
  }

  /**
   * Runs one call of one of `prompt`'s tools outside the model loop (an MCP
   * client's call, a test, a job), exactly as a model's call runs: argument
   * validation, policies, its own call scope, rollback on failure, one
   * `ToolInvoked` in `options.session` (a new session when omitted). A failure
   * comes back as the outcome's failed result, never thrown; a call that needs
   * approval is decided by `options.approve`, denied without it. Arguments
   * follow the tool's standard JSON Schema (`toJsonSchema(params, 'standard')`).
   * @throws PromptEvaluationError when the deadline passed or `options.signal` aborted before the call ended.
   *
   * @example
   * const outcome = await runtime.callTool(prompt, { name: 'lookup_order', arguments: '{"orderId":"A-1"}' });
   * console.log(outcome.result.success, outcome.message);
   */
  async callTool(
    prompt: Prompt,
    request: ToolCallRequest,
    options: CallToolOptions = {},
  ): Promise<ToolCallOutcome> {
    const adapter = options.adapter ?? (await adapterForCall(this.container, prompt.label));
    checkSeam(adapter);
    this.prepare(prompt);
    const scope = this.#openScope(prompt, adapter, options, undefined, options);
    try {
      return await runToolCall(scope, this.#executor, request, options, this.#telemetry);
    } finally {
      // Most direct calls' scopes close at once: no promise to wait for.
      const closing = scope.dispose();
      if (closing !== undefined) await closing;
    }
  }

  /** The loop behind `evaluate` and `stream`; given its adapter, it starts without an async frame of its own. */
  #run<O>(
    prompt: Prompt<O>,
    options: EvaluateOptions,
    sink: PartSink | undefined,
  ): Promise<PromptResponse<O>> {
    const adapter = options.adapter;
    if (adapter === undefined || options.resume !== undefined) {
      return this.#runAwaiting(prompt, options, sink);
    }
    try {
      return this.#start(prompt, adapter, options, sink);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what the checks threw, unchanged
      return Promise.reject(error);
    }
  }

  /** Starts a new evaluation on `adapter`: checks, prepares the prompt, runs in a new scope. */
  #start<O>(
    prompt: Prompt<O>,
    adapter: ProviderAdapter,
    options: EvaluateOptions,
    sink: PartSink | undefined,
  ): Promise<PromptResponse<O>> {
    checkNotExpired(prompt, options.deadline);
    checkSeam(adapter);
    const maxTurns = positiveInteger(options.maxTurns ?? this.maxTurns, 'maxTurns');
    this.prepare(prompt);
    return this.#runIn(this.#openScope(prompt, adapter, options), maxTurns, options, sink);
  }

  /** `#run` for an adapter bound in the container, or a resumed evaluation. */
  async #runAwaiting<O>(
    prompt: Prompt<O>,
    options: EvaluateOptions,
    sink: PartSink | undefined,
  ): Promise<PromptResponse<O>> {
    checkNotExpired(prompt, options.deadline);
    const adapter = options.adapter ?? (await boundAdapter(this.container, prompt.label));
    const request = options.resume;
    if (request === undefined) return await this.#start(prompt, adapter, options, sink);
    checkSeam(adapter);
    const checked = checkResume(request, {
      prompt,
      adapter,
      session: options.session,
      signer: this.#signer,
    });
    const { state } = checked;
    if (this.#resuming.has(state.stateId)) throw alreadyResuming(state, prompt);
    this.#resuming.add(state.stateId);
    try {
      const maxTurns = positiveInteger(options.maxTurns ?? state.maxTurns, 'maxTurns');
      this.prepare(prompt);
      const scope = this.#openScope(prompt, adapter, options, state);
      const resume = openResume(scope, checked);
      return await this.#runIn(scope, maxTurns, options, sink, resume);
    } finally {
      this.#resuming.delete(state.stateId);
    }
  }

  /** Runs an evaluation in its scope, then disposes the scope. */
  async #runIn<O>(
    scope: EvaluationScope,
    maxTurns: number,
    options: EvaluateOptions,
    sink: PartSink | undefined,
    resume?: ResumePoint | (() => ResumePoint),
  ): Promise<PromptResponse<O>> {
    const observer = this.#telemetry?.startEvaluation(
      evaluationStart(scope, options, sink !== undefined, resume !== undefined),
    );
    try {
      const response = await new EvaluationRun<O>({
        scope,
        executor: this.#executor,
        clock: this.clock,
        maxTurns,
        maxAnswerChars: answerLimit(options.maxAnswerChars ?? this.maxAnswerChars),
        options,
        sink,
        resume: typeof resume === 'function' ? resume() : resume,
        signer: this.#signer,
        observer,
        governor: new LoopGovernor(
          loopGovernorSettings(options.governor, this.#governor),
          scope,
          observer,
        ),
      }).run();
      if (response.status === 'completed') observer?.completed(response);
      else observer?.paused(response);
      return response;
    } catch (error) {
      observer?.failed(error);
      throw error;
    } finally {
      await scope.dispose();
    }
  }

  /** Opens an evaluation's scope (see `openEvaluationScope`). */
  #openScope(
    prompt: Prompt,
    adapter: ProviderAdapter,
    options: EvaluateOptions,
    resumed?: EvaluationState,
    direct?: Pick<CallToolOptions, 'onProgress'>,
  ): EvaluationScope {
    return openEvaluationScope(this.#scopes, prompt, adapter, options, resumed, direct);
  }

  /** A nested evaluation (`context.evaluate`): it cannot pause, so a pause fails the enclosing call. */
  async #nested<O>(
    child: Prompt<O>,
    adapter: ProviderAdapter,
    options: EvaluateOptions,
  ): Promise<PromptResponse<O>> {
    const response = await this.evaluate(child, Object.assign({ adapter }, options));
    if (response.status === 'completed') return response;
    throw nestedPauseError(child.label, response);
  }
}
