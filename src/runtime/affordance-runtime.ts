import { randomUUID } from 'node:crypto';

import type { Container, ServiceIdentifier } from 'inversify';

import { assertScopes } from './scope/assert-scopes.js';
import { type ScopedServiceIds, scopesReachedBy } from './scope/check-scopes.js';
import { EvaluationScope } from './scope/evaluation-scope.js';
import { EvaluationId, ToolCallId, ToolCallSignal } from './scope/tokens.js';
import { BudgetExceededError } from '../core/errors/budget-exceeded-error.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { DeadlineExceededError } from '../core/errors/deadline-exceeded-error.js';
import { describeThrown } from '../core/errors/describe-thrown.js';
import { OutputParseError } from '../core/errors/output-parse-error.js';
import {
  PromptEvaluationError,
  type PromptEvaluationPhase,
} from '../core/errors/prompt-evaluation-error.js';
import { PromptExecuted } from './events/prompt-executed.js';
import { PromptRendered } from './events/prompt-rendered.js';
import type { TokenUsage } from '../provider/token-usage.js';
import { Prompt } from '../prompt/prompt.js';
import { RenderedPrompt } from '../prompt/rendered-prompt.js';
import { sectionClassOf } from '../prompt/section-from-class.js';
import { ToolContext } from '../tools/tool-context.js';
import { ResourceRegistry } from '../resources/resource-registry.js';
import { assertCallOpen } from '../session/call-frame.js';
import { Session } from '../session/session.js';
import { BudgetTracker } from './limits/budget-tracker.js';
import { Deadline } from './limits/deadline.js';
import { type Clock, systemClock } from '../core/clock.js';
import type { ConversationMessage, ProviderTurn, ToolChoice } from '../provider/conversation.js';
import type { EvaluateOptions } from './evaluate-options.js';
import { evaluationEventFields } from './events/event-fields.js';
import { parseStructuredOutput } from '../schema/parse-structured-output.js';
import type { PromptResponse } from './prompt-response.js';
import { recordNativeCall } from './record-native-call.js';
import type { ProviderAdapter } from '../provider/provider-adapter.js';
import type { RuntimeOptions } from './runtime-options.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';
import { ToolExecutor } from './tool-executor.js';

const DEFAULT_MAX_TURNS = 24;

/** What the runtime binds per evaluation and per tool call (see `EvaluationScope`). */
const scopedServiceIds: ScopedServiceIds = {
  evaluation: [EvaluationId, Prompt, RenderedPrompt, Session, Deadline, BudgetTracker],
  call: [ToolContext, ToolCallId, ToolCallSignal],
};
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
  /** Source of time. */
  readonly clock: Clock;
  readonly #executor: ToolExecutor;
  readonly #resources: ResourceRegistry;
  readonly #prepared = new WeakSet<Prompt>();
  /** Section classes none of whose dependencies is a call value (planned in `prepare`). */
  readonly #callFree = new WeakSet();

  constructor(container: Container, options: RuntimeOptions = {}) {
    this.container = container;
    this.maxTurns = positiveInteger(options.maxTurns ?? DEFAULT_MAX_TURNS, 'maxTurns');
    this.clock = options.clock ?? systemClock;
    this.#resources = options.resources ?? new ResourceRegistry();
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
    for (const prompt of prompts) {
      if (this.#prepared.has(prompt)) continue;
      const roots = prompt.registry.nodes
        .map((node) => sectionClassOf(node.section))
        .filter((cls) => cls !== undefined);
      assertScopes(this.container, roots as ServiceIdentifier[], scopedServiceIds, {
        bindUnboundRoots: true,
      });
      for (const root of roots as ServiceIdentifier[]) {
        const reached = scopesReachedBy(this.container, root, scopedServiceIds, {
          bindUnboundRoots: true,
        });
        if (!reached.has('call')) this.#callFree.add(root as object);
      }
      this.#prepared.add(prompt);
    }
  }

  /**
   * Whether `prepare` found that `sectionClass` injects no call value, so it can
   * be resolved without a per-call container. @internal
   */
  isCallFree(sectionClass: object): boolean {
    return this.#callFree.has(sectionClass);
  }

  /** Runs one evaluation of `prompt` with `adapter` (see `ProviderAdapter.evaluate`). */
  async evaluate<O>(
    adapter: ProviderAdapter,
    prompt: Prompt<O>,
    options: EvaluateOptions = {},
  ): Promise<PromptResponse<O>> {
    const started = this.clock.now();
    const label = `${prompt.ns}/${prompt.key}`;
    const fail = (
      message: string,
      phase: PromptEvaluationPhase,
      extra: { cause?: unknown; providerPayload?: unknown } = {},
    ) => new PromptEvaluationError(message, { phase, prompt: label, ...extra });
    const deadline = options.deadline;
    if (deadline?.expired === true) {
      throw fail('Deadline expired before evaluation started.', 'request', {
        providerPayload: { deadlineExpiresAt: deadline.expiresAt.toISOString() },
      });
    }
    const maxTurns = positiveInteger(options.maxTurns ?? this.maxTurns, 'maxTurns');
    this.prepare(prompt);
    const session = options.session ?? new Session({ clock: this.clock });
    const rendered = prompt.render({
      params: options.params,
      session,
      overrides: options.overrides,
    });
    adapter.validate(rendered);
    const budgetTracker =
      options.budgetTracker ??
      (options.budget === undefined ? undefined : new BudgetTracker(options.budget));
    const signals = [deadline?.signal, options.signal].filter(
      (s): s is AbortSignal => s !== undefined,
    );
    const registry =
      options.resources === undefined
        ? this.#resources
        : this.#resources.merge(options.resources, { strict: false });
    const scope = new EvaluationScope({
      root: this.container,
      evaluationId: randomUUID(),
      prompt,
      rendered,
      session,
      deadline,
      budgetTracker,
      resources: registry.open(),
      adapter,
      signal: signals.length === 0 ? new AbortController().signal : AbortSignal.any(signals),
      resolvableWithoutCall: (sectionClass) => this.isCallFree(sectionClass),
    });
    try {
      const common = evaluationEventFields(scope);
      session.dispatch(
        new PromptRendered({
          ...common,
          renderInputs: options.params ?? [],
          renderedPrompt: rendered.text,
        }),
      );
      const messages: ConversationMessage[] = [{ role: 'system', content: rendered.text }];
      if (options.input !== undefined) messages.push({ role: 'user', content: options.input });
      const toolCalls: ToolCallOutcome[] = [];
      const output =
        rendered.outputType === undefined || rendered.outputContainer === undefined
          ? undefined
          : { type: rendered.outputType, container: rendered.outputContainer };
      let toolChoice: ToolChoice = options.toolChoice ?? 'auto';
      let usage: TokenUsage | undefined;

      for (let turn = 0; ; turn += 1) {
        if (turn >= maxTurns) {
          throw fail(
            `The model was still calling tools after ${maxTurns} requests (maxTurns). ` +
              'Raise maxTurns in evaluate() or installAffordance(), or tell the model when to stop.',
            'response',
          );
        }
        stopIfOver(scope, 'before the provider request', 'request', fail);
        // A nested evaluation whose enclosing call was rolled back asks the model nothing more.
        assertCallOpen(() => `request ${turn + 1} to the provider for ${label}`);
        let answer: ProviderTurn;
        try {
          answer = await adapter.request({
            rendered,
            messages: [...messages],
            tools: rendered.tools,
            toolChoice,
            output,
            turn,
            evaluationId: scope.evaluationId,
            signal: scope.signal,
            deadline,
          });
        } catch (error) {
          if (PromptEvaluationError.is(error)) throw error;
          throw fail(`The provider request failed: ${messageOf(error)}`, 'request', {
            cause: error,
          });
        }
        usage = answer.usage ?? usage;
        for (const native of answer.nativeCalls ?? []) {
          toolCalls.push(recordNativeCall(scope, native, usage));
        }
        checkBudget(scope, usage, fail);
        const calls = answer.toolCalls ?? [];
        if (calls.length === 0) {
          stopIfOver(scope, 'while finishing the answer', 'response', fail);
          const result = await finish(rendered.outputType, rendered.outputContainer, answer, fail);
          const response: PromptResponse<O> = {
            promptName: prompt.name,
            evaluationId: scope.evaluationId,
            text: result.text,
            output: result.output as O | O[] | null,
            toolCalls,
            turns: turn + 1,
            usage,
          };
          const executed = session.dispatch(
            new PromptExecuted({
              ...common,
              result: { text: result.text, output: result.output },
              usage,
              durationMs: Math.max(0, this.clock.now() - started),
            }),
          );
          if (!executed.ok) {
            throw fail(
              `Recording the result failed: ${executed.errors.map((failure) => messageOf(failure.error)).join('; ')}. ` +
                'Fix the failing PromptExecuted subscriber or reducer; the answer is in providerPayload.',
              'response',
              {
                cause: new AggregateError(executed.errors.map((failure) => failure.error)),
                providerPayload: response,
              },
            );
          }
          return response;
        }
        messages.push({
          role: 'assistant',
          content: answer.text ?? null,
          toolCalls: calls,
          providerItems: answer.providerItems ?? [],
        });
        const outcomes = await this.#executor.execute(scope, calls, { usage });
        for (const outcome of outcomes) {
          toolCalls.push(outcome);
          messages.push({
            role: 'tool',
            callId: outcome.call.callId,
            name: outcome.call.name,
            content: outcome.message,
            result: outcome.result,
          });
        }
        checkBudget(scope, usage, fail);
        if (typeof toolChoice === 'object') toolChoice = 'auto';
      }
    } finally {
      await scope.dispose();
    }
  }
}

type Fail = (
  message: string,
  phase: PromptEvaluationPhase,
  extra?: { cause?: unknown; providerPayload?: unknown },
) => PromptEvaluationError;

function stopIfOver(
  scope: EvaluationScope,
  activity: string,
  phase: PromptEvaluationPhase,
  fail: Fail,
): void {
  if (scope.deadline?.expired === true) {
    throw fail(`Deadline expired ${activity}.`, phase, {
      providerPayload: { deadlineExpiresAt: scope.deadline.expiresAt.toISOString() },
    });
  }
  if (scope.signal.aborted)
    throw fail(`Evaluation was cancelled ${activity}.`, phase, { cause: scope.signal.reason });
}

function checkBudget(scope: EvaluationScope, usage: TokenUsage | undefined, fail: Fail): void {
  const tracker = scope.budgetTracker;
  if (tracker === undefined) return;
  if (usage !== undefined) tracker.recordCumulative(scope.evaluationId, usage);
  try {
    tracker.check();
  } catch (error) {
    // The budget's own deadline surfaces as a DeadlineExceededError; both end the evaluation the same way.
    if (BudgetExceededError.is(error) || DeadlineExceededError.is(error)) {
      throw fail(error.message, 'budget', { cause: error });
    }
    throw error;
  }
}

async function finish(
  outputType: Prompt['outputType'],
  container: 'object' | 'array' | undefined,
  answer: ProviderTurn,
  fail: Fail,
): Promise<{ text: string | null; output: unknown }> {
  const text = answer.text ?? null;
  if (outputType === undefined || container === undefined) return { text, output: null };
  try {
    const output = await parseStructuredOutput(outputType, container, {
      text,
      parsed: answer.parsed,
    });
    return { text: null, output };
  } catch (error) {
    if (OutputParseError.is(error))
      throw fail(error.message, 'response', { cause: error, providerPayload: answer.raw });
    throw error;
  }
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new ConfigurationError({
      subject: name,
      problem: `must be a positive integer, got ${String(value)}.`,
      fix: `Pass a whole number of at least 1, e.g. ${name}: ${name === 'maxTurns' ? 24 : 4}, or leave it out for the default.`,
    });
  }
  return value;
}

function messageOf(error: unknown): string {
  return describeThrown(error);
}
