import type { Clock } from '../core/clock.js';
import { BudgetExceededError } from '../core/errors/budget-exceeded-error.js';
import { DeadlineExceededError } from '../core/errors/deadline-exceeded-error.js';
import { describeThrown } from '../core/errors/describe-thrown.js';
import { OutputParseError } from '../core/errors/output-parse-error.js';
import {
  PromptEvaluationError,
  type PromptEvaluationPhase,
} from '../core/errors/prompt-evaluation-error.js';
import type { ConversationMessage, ProviderTurn, ToolChoice } from '../provider/conversation.js';
import type { ProviderRequest, RequestOutput } from '../provider/provider-request.js';
import type { ProviderStreamPart } from '../provider/provider-stream-part.js';
import type { TokenUsage } from '../provider/token-usage.js';
import { parseStructuredOutput } from '../schema/parse-structured-output.js';
import { assertCallOpen } from '../session/call-frame.js';
import { evaluationEventFields } from './events/event-fields.js';
import { PromptExecuted } from './events/prompt-executed.js';
import { PromptRendered } from './events/prompt-rendered.js';
import type { EvaluateOptions } from './evaluate-options.js';
import type { EvaluationStreamPart } from './evaluation-stream-part.js';
import type { PartSink } from './evaluation-stream.js';
import type { PromptResponse } from './prompt-response.js';
import { recordNativeCall } from './record-native-call.js';
import type { EvaluationScope } from './scope/evaluation-scope.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';
import type { ToolExecutor } from './tool-executor.js';

/** What one evaluation needs from the runtime that runs it. */
export interface EvaluationRunInit {
  readonly scope: EvaluationScope;
  readonly executor: ToolExecutor;
  readonly clock: Clock;
  readonly maxTurns: number;
  readonly options: EvaluateOptions;
  /** Where a streamed evaluation sends its parts; absent for `evaluate`. */
  readonly sink?: PartSink | undefined;
}

/**
 * One evaluation's loop, in its natural steps: {@link EvaluationRun.start}
 * records the rendering and opens the conversation; each turn requests an
 * answer ({@link EvaluationRun.requestTurn}), then either runs the tools the
 * model called ({@link EvaluationRun.runTools}) or finishes
 * ({@link EvaluationRun.finish}). The runtime owns everything here: the
 * conversation, the usage totals, the tool choice and the identity. @internal
 */
export class EvaluationRun<O> {
  readonly #scope: EvaluationScope;
  readonly #executor: ToolExecutor;
  readonly #clock: Clock;
  readonly #maxTurns: number;
  readonly #options: EvaluateOptions;
  readonly #started: number;
  readonly #label: string;
  readonly #messages: ConversationMessage[] = [];
  readonly #toolCalls: ToolCallOutcome[] = [];
  readonly #output: RequestOutput | undefined;
  readonly #sink: PartSink | undefined;
  #toolChoice: ToolChoice;
  #usage: TokenUsage | undefined;

  constructor(init: EvaluationRunInit) {
    this.#scope = init.scope;
    this.#executor = init.executor;
    this.#clock = init.clock;
    this.#maxTurns = init.maxTurns;
    this.#options = init.options;
    this.#sink = init.sink;
    this.#started = init.clock.now();
    this.#label = init.scope.prompt.label;
    this.#toolChoice = init.options.toolChoice ?? 'auto';
    const rendered = init.scope.rendered;
    this.#output =
      rendered.outputType === undefined || rendered.outputContainer === undefined
        ? undefined
        : { type: rendered.outputType, container: rendered.outputContainer };
  }

  /** Runs the loop to its answer. */
  async run(): Promise<PromptResponse<O>> {
    this.start();
    for (let turn = 0; ; turn += 1) {
      const answer = await this.requestTurn(turn);
      if ((answer.toolCalls ?? []).length === 0) return await this.finish(answer, turn);
      await this.runTools(answer, turn);
    }
  }

  /** Records `PromptRendered` and opens the conversation with the rendered prompt and the input. */
  start(): void {
    const rendered = this.#scope.rendered;
    this.#scope.session.dispatch(
      new PromptRendered(
        Object.assign(evaluationEventFields(this.#scope), {
          renderInputs: this.#options.params ?? [],
          renderedPrompt: rendered.text,
        }),
      ),
    );
    this.#messages.push({ role: 'system', content: rendered.text });
    if (this.#options.input !== undefined) {
      this.#messages.push({ role: 'user', content: this.#options.input });
    }
  }

  /**
   * Asks the provider for turn `turn` (0 first), after checking the turn
   * limit, the deadline, cancellation and the enclosing call; adds the turn's
   * usage to the total and records the calls the provider ran itself.
   */
  async requestTurn(turn: number): Promise<ProviderTurn> {
    const scope = this.#scope;
    if (turn >= this.#maxTurns) {
      throw this.fail(
        `The model was still calling tools after ${this.#maxTurns} requests (maxTurns). ` +
          'Raise maxTurns in evaluate() or installAffordance(), or tell the model when to stop.',
        'response',
      );
    }
    this.stopIfOver('before the provider request', 'request');
    // A nested evaluation whose enclosing call was rolled back asks the model nothing more.
    assertCallOpen(() => `request ${turn + 1} to the provider for ${this.#label}`);
    const request: ProviderRequest = {
      prompt: scope.requestPrompt,
      messages: [...this.#messages],
      tools: scope.toolSpecs,
      toolChoice: this.#toolChoice,
      output: this.#output,
      turn,
      evaluationId: scope.evaluationId,
      signal: scope.signal,
      deadline: scope.deadline,
      clock: this.#clock,
    };
    const sink = this.#sink;
    let answer: ProviderTurn;
    try {
      answer =
        sink === undefined
          ? await scope.adapter.request(request)
          : await this.#streamTurn(request, sink);
    } catch (error) {
      if (PromptEvaluationError.is(error)) throw error;
      // A request cut short by the deadline or a cancellation says so, whatever the adapter threw.
      this.stopIfOver('during the provider request', 'request');
      throw this.fail(`The provider request failed: ${describeThrown(error)}`, 'request', {
        cause: error,
      });
    }
    if (answer.usage !== undefined) {
      this.#usage = this.#usage === undefined ? answer.usage : this.#usage.plus(answer.usage);
      this.#emit({ type: 'usage', turn, usage: answer.usage, total: this.#usage });
    }
    for (const native of answer.nativeCalls ?? []) {
      const outcome = recordNativeCall(scope, native, this.#usage);
      this.#toolCalls.push(outcome);
      this.#emit({ type: 'native-call', turn, event: outcome.event });
    }
    this.checkBudget();
    this.#emit({
      type: 'turn-end',
      turn,
      finishReason: answer.finishReason,
      toolCalls: answer.toolCalls?.length ?? 0,
    });
    return answer;
  }

  /**
   * Sends a part to the stream's reader, if the evaluation is streamed. These
   * parts come a few per turn, so they never wait for room (the deltas, which
   * can be many, do); `evaluate` pays nothing here.
   */
  #emit(part: EvaluationStreamPart): void {
    this.#sink?.sendNow(part);
  }

  /**
   * Streams one request: `turn-start`, then the adapter's deltas as they
   * come; returns the turn the stream ends with.
   */
  async #streamTurn(request: ProviderRequest, sink: PartSink): Promise<ProviderTurn> {
    const turn = request.turn;
    await sink.send({ type: 'turn-start', turn });
    let answer: ProviderTurn | undefined;
    for await (const part of this.#scope.adapter.stream(request)) {
      if (answer !== undefined) {
        throw new Error(`the adapter's stream yielded a '${part.type}' part after its 'turn' part`);
      }
      if (part.type === 'turn') {
        answer = part.turn;
        continue;
      }
      const full = sink.send(streamPartOf(part, turn));
      if (full !== undefined) await full;
    }
    if (answer === undefined) throw new Error("the adapter's stream ended without a 'turn' part");
    return answer;
  }

  /** Runs the tool calls of `answer` (turn `turn`) and adds them and their results to the conversation. */
  async runTools(answer: ProviderTurn, turn: number): Promise<void> {
    const calls = answer.toolCalls ?? [];
    this.#messages.push({
      role: 'assistant',
      content: answer.text ?? null,
      toolCalls: calls,
      providerItems: answer.providerItems ?? [],
    });
    const sink = this.#sink;
    const outcomes = await this.#executor.execute(this.#scope, calls, {
      usage: this.#usage,
      onOutcome:
        sink === undefined
          ? undefined
          : (outcome) => {
              sink.sendNow({
                type: 'tool-call-end',
                turn,
                event: outcome.event,
                message: outcome.message,
              });
            },
    });
    for (const outcome of outcomes) {
      this.#toolCalls.push(outcome);
      this.#messages.push({
        role: 'tool',
        callId: outcome.call.callId,
        name: outcome.call.name,
        content: outcome.message,
        result: outcome.result,
      });
    }
    this.checkBudget();
    if (typeof this.#toolChoice === 'object') this.#toolChoice = 'auto';
  }

  /** Parses the structured output of the final answer, records `PromptExecuted` and builds the response. */
  async finish(answer: ProviderTurn, turn: number): Promise<PromptResponse<O>> {
    const scope = this.#scope;
    this.stopIfOver('while finishing the answer', 'response');
    const result = await this.#parseAnswer(answer);
    const response: PromptResponse<O> = {
      promptName: scope.prompt.name,
      evaluationId: scope.evaluationId,
      text: result.text,
      output: result.output as O | O[] | null,
      toolCalls: this.#toolCalls,
      turns: turn + 1,
      usage: this.#usage,
    };
    const executed = scope.session.dispatch(
      new PromptExecuted(
        Object.assign(evaluationEventFields(scope), {
          result: { text: result.text, output: result.output },
          usage: this.#usage,
          durationMs: Math.max(0, this.#clock.now() - this.#started),
        }),
      ),
    );
    if (!executed.ok) {
      throw this.fail(
        `Recording the result failed: ${executed.errors.map((failure) => describeThrown(failure.error)).join('; ')}. ` +
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

  /** A `PromptEvaluationError` of this evaluation. */
  fail(
    message: string,
    phase: PromptEvaluationPhase,
    extra: { cause?: unknown; providerPayload?: unknown } = {},
  ): PromptEvaluationError {
    return new PromptEvaluationError(message, { phase, prompt: this.#label, ...extra });
  }

  async #parseAnswer(answer: ProviderTurn): Promise<{ text: string | null; output: unknown }> {
    const text = answer.text ?? null;
    const output = this.#output;
    if (output === undefined) return { text, output: null };
    try {
      const parsed = await parseStructuredOutput(output.type, output.container, {
        text,
        parsed: answer.parsed,
      });
      return { text: null, output: parsed };
    } catch (error) {
      if (OutputParseError.is(error)) {
        throw this.fail(error.message, 'response', { cause: error, providerPayload: answer.raw });
      }
      throw error;
    }
  }

  private stopIfOver(activity: string, phase: PromptEvaluationPhase): void {
    const scope = this.#scope;
    if (scope.deadline?.expired === true) {
      throw this.fail(`Deadline expired ${activity}.`, phase, {
        providerPayload: { deadlineExpiresAt: scope.deadline.expiresAt.toISOString() },
      });
    }
    if (scope.signal.aborted) {
      throw this.fail(`Evaluation was cancelled ${activity}.`, phase, {
        cause: scope.signal.reason,
      });
    }
  }

  private checkBudget(): void {
    const tracker = this.#scope.budgetTracker;
    if (tracker === undefined) return;
    if (this.#usage !== undefined) tracker.recordCumulative(this.#scope.evaluationId, this.#usage);
    try {
      tracker.check();
    } catch (error) {
      // The budget's own deadline surfaces as a DeadlineExceededError; both end the evaluation the same way.
      if (BudgetExceededError.is(error) || DeadlineExceededError.is(error)) {
        throw this.fail(error.message, 'budget', { cause: error });
      }
      throw error;
    }
  }
}

/** A provider's delta as a part of the evaluation stream, tagged with its turn. */
function streamPartOf(
  part: Exclude<ProviderStreamPart, { type: 'turn' }>,
  turn: number,
): EvaluationStreamPart {
  switch (part.type) {
    case 'text-delta':
    case 'reasoning-delta':
      return { type: part.type, turn, delta: part.delta };
    case 'tool-call-start':
      return { type: part.type, turn, callId: part.callId, name: part.name };
    case 'tool-arguments-delta':
      return { type: part.type, turn, callId: part.callId, delta: part.delta };
  }
}
