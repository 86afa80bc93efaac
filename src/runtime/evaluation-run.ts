import { mediaParts, type MessageContent } from '../content/content-part.js';
import { storeInputMedia, toolMediaMessage } from './media/conversation-media.js';
import { hydrateConversation } from './media/hydrate-media.js';
import { MediaError } from '../core/errors/media-error.js';
import { describeThrown } from '../core/errors/describe-thrown.js';
import {
  PromptEvaluationError,
  type PromptEvaluationPhase,
} from '../core/errors/prompt-evaluation-error.js';
import type {
  ConversationMessage,
  ProviderToolCall,
  ProviderTurn,
  ToolChoice,
} from '../provider/conversation.js';
import type { ProviderRequest, RequestOutput } from '../provider/provider-request.js';
import type { TokenUsage } from '../provider/token-usage.js';
import { assertCallOpen } from '../session/call-frame.js';
import { evaluationEventFields } from './events/event-fields.js';
import { recordPromptExecuted, servedBy } from './record-prompt-executed.js';
import { PromptRendered } from './events/prompt-rendered.js';
import { sendOutcomes, streamTurn, wholeTurn } from './stream-turn.js';
import type { CompletedResponse, InterruptedResponse, PromptResponse } from './prompt-response.js';
import { completedResponse, interruptedResponse } from './evaluation-responses.js';
import type { ApprovalDecision } from './approval/approval-decision.js';
import type { ResumePoint } from './approval/resume-point.js';
import type { EvaluationState } from './approval/evaluation-state.js';
import { saveEvaluationState } from './approval/save-evaluation-state.js';
import type { EvaluationScope } from './scope/evaluation-scope.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';
import type { ExecutedCalls, PausedCalls } from './tool-executor.js';
import { parseAnswer } from './parse-answer.js';
import { takeAnswer } from './take-answer.js';
import { checkBudget, stopIfOver } from './evaluation-stops.js';
import type { LoopGovernor } from './governor/loop-governor.js';
import type { EvaluationRunInit } from './evaluation-run-init.js';
import { answerSentBack, guardAnswer, guardInput } from './guardrails/run-guardrails.js';

export type { EvaluationRunInit };

/**
 * One evaluation's loop, in its natural steps: {@link EvaluationRun.start}
 * records the rendering and opens the conversation; each turn requests an
 * answer ({@link EvaluationRun.requestTurn}), then either runs the tools the
 * model called ({@link EvaluationRun.runTools}) or finishes
 * ({@link EvaluationRun.finish}). The runtime owns everything here: the
 * conversation, the usage totals, the tool choice and the identity. @internal
 */
export class EvaluationRun<O> {
  /** What the runtime gave this evaluation: executor, clock, limits, options, sink, signer, observer, governor. */
  readonly #init: EvaluationRunInit;
  readonly #scope: EvaluationScope;
  readonly #started: number;
  readonly #label: string;
  readonly #messages: ConversationMessage[] = [];
  readonly #toolCalls: ToolCallOutcome[] = [];
  readonly #output: RequestOutput | undefined;
  readonly #resume: ResumePoint | undefined;
  /** The outcomes of the last batch of calls added to the conversation. */
  #lastOutcomes: readonly ToolCallOutcome[] = [];
  #toolChoice: ToolChoice;
  #usage: TokenUsage | undefined;
  /** The input sent (after the input guardrails), and how many answers the answer guardrails saw. */
  #input: MessageContent | undefined;
  #answers = 0;

  constructor(init: EvaluationRunInit) {
    this.#init = init;
    this.#scope = init.scope;
    this.#label = init.scope.prompt.label;
    const resume = init.resume;
    this.#resume = resume;
    if (resume === undefined) {
      this.#started = init.clock.now();
      this.#toolChoice = init.options.toolChoice ?? 'auto';
    } else {
      // The pause does not count towards the evaluation's duration.
      this.#started = init.clock.now() - resume.elapsedMs;
      this.#toolChoice = resume.toolChoice;
      this.#messages.push(...resume.messages);
      this.#toolCalls.push(...resume.toolCalls);
      this.#usage = resume.usage;
    }
    const rendered = init.scope.rendered;
    this.#output =
      rendered.outputType === undefined || rendered.outputContainer === undefined
        ? undefined
        : { type: rendered.outputType, container: rendered.outputContainer };
  }

  /**
   * Runs the loop to its answer, or until calls wait for approval. A resumed
   * evaluation first runs the rest of the turn it paused in.
   */
  async run(): Promise<PromptResponse<O>> {
    let turn = 0;
    const resume = this.#resume;
    if (resume === undefined) {
      this.#input = await guardInput(this.#scope, this.#init.options.input, this.#init.observer);
      this.#input = await storeInputMedia(this.#scope, this.#input);
      this.start();
    } else {
      turn = resume.turn;
      this.#messages.splice(
        0,
        this.#messages.length,
        ...(await hydrateConversation(this.#scope, this.#messages)),
      );
      await this.#checkpointTurn(resume.remaining, turn, resume.decisions);
      const before = this.#init.governor.before();
      const paused = await this.#runCalls(resume.remaining, turn, resume.decisions);
      if (paused !== undefined) return this.#interrupt(paused, turn);
      this.#govern(before, turn);
      turn += 1;
    }
    for (; ; turn += 1) {
      const answer = await this.requestTurn(turn);
      if ((answer.toolCalls ?? []).length === 0) {
        const done = await this.finish(answer, turn);
        if (done !== undefined) return done;
        continue;
      }
      const before = this.#init.governor.before();
      const paused = await this.runTools(answer, turn);
      if (paused !== undefined) return this.#interrupt(paused, turn);
      this.#govern(before, turn);
    }
  }

  /** Lets the governor judge turn `turn`'s calls: its notice joins the conversation; its stop is thrown. */
  #govern(before: ReturnType<LoopGovernor['before']>, turn: number): void {
    const verdict = this.#init.governor.after(this.#lastOutcomes, before, turn);
    if (verdict.kind === 'warn') this.#messages.push({ role: 'user', content: verdict.notice });
    else if (verdict.kind === 'stop') throw verdict.error;
  }

  /** Records `PromptRendered` and opens the conversation with the rendered prompt and the input. */
  start(): void {
    const rendered = this.#scope.rendered;
    this.#scope.session.dispatch(
      new PromptRendered(
        Object.assign(evaluationEventFields(this.#scope), {
          renderInputs: this.#init.options.params ?? [],
          renderedPrompt: rendered.text,
          media: this.#input === undefined ? undefined : mediaParts(this.#input),
        }),
      ),
    );
    this.#messages.push({ role: 'system', content: rendered.text });
    if (this.#input !== undefined) this.#messages.push({ role: 'user', content: this.#input });
  }

  /**
   * Asks the provider for turn `turn` (0 first), after checking the turn
   * limit, the deadline, cancellation and the enclosing call; adds the turn's
   * usage to the total and records the calls the provider ran itself.
   */
  async requestTurn(turn: number): Promise<ProviderTurn> {
    const scope = this.#scope;
    if (turn >= this.#init.maxTurns) {
      throw this.fail(
        `The model was still calling tools after ${this.#init.maxTurns} requests (maxTurns). ` +
          'Raise maxTurns in evaluate() or installAffordance(), or tell the model when to stop.',
        'response',
      );
    }
    this.stopIfOver('before the provider request', 'request');
    // A nested evaluation whose enclosing call was rolled back asks the model nothing more.
    assertCallOpen(() => `request ${turn + 1} to the provider for ${this.#label}`);
    // A section whose tools changed since the last request (an MCP server's list) offers the new ones.
    if (turn > 0) scope.refreshTools();
    const notice = this.#init.governor.lastTurnNotice(turn, this.#init.maxTurns);
    const messages: ConversationMessage[] = [...this.#messages];
    if (notice !== undefined) messages.push({ role: 'user', content: notice });
    const request: ProviderRequest = {
      prompt: scope.requestPrompt,
      messages,
      tools: scope.toolSpecs,
      toolChoice: this.#toolChoice,
      output: this.#output,
      turn,
      evaluationId: scope.evaluationId,
      signal: scope.cancellation.signal,
      deadline: scope.deadline,
      clock: this.#init.clock,
      maxAnswerChars: this.#init.maxAnswerChars,
    };
    const observer = this.#init.observer;
    let answer: ProviderTurn;
    try {
      answer = await (observer === undefined
        ? this.#send(request)
        : observer.observeRequest(request, () => this.#send(request)));
    } catch (error) {
      // A media part the provider's published limits refuse was refused before anything was sent.
      if (PromptEvaluationError.is(error) || MediaError.is(error)) throw error;
      // A request cut short by the deadline or a cancellation says so, whatever the adapter threw.
      this.stopIfOver('during the provider request', 'request');
      throw this.fail(`The provider request failed: ${describeThrown(error)}`, 'request', {
        cause: error,
      });
    }
    this.#usage = takeAnswer(this.#init, answer, turn, this.#usage, this.#toolCalls);
    return answer;
  }

  /** Sends `request` to the adapter, streamed when the evaluation is. */
  #send(request: ProviderRequest): Promise<ProviderTurn> {
    const sink = this.#init.sink;
    const adapter = this.#scope.adapter;
    return sink === undefined ? wholeTurn(adapter, request) : streamTurn(adapter, request, sink);
  }

  /**
   * Runs the tool calls of `answer` (turn `turn`) and adds them and their
   * results to the conversation; returns where they paused, if a call needs approval.
   */
  runTools(answer: ProviderTurn, turn: number): Promise<PausedCalls | undefined> {
    const calls = answer.toolCalls ?? [];
    this.#messages.push({
      role: 'assistant',
      content: answer.text ?? null,
      toolCalls: calls,
      providerItems: answer.providerItems ?? [],
    });
    const checkpointed = this.#checkpointTurn(calls, turn, undefined);
    if (checkpointed === undefined) return this.#runCalls(calls, turn, undefined);
    return checkpointed.then(() => this.#runCalls(calls, turn, undefined));
  }

  /** Runs `calls` of turn `turn`, then adds their results (a callback, not a suspended frame, while they run). */
  #runCalls(
    calls: readonly ProviderToolCall[],
    turn: number,
    decisions: ReadonlyMap<string, ApprovalDecision> | undefined,
  ): Promise<PausedCalls | undefined> {
    const sink = this.#init.sink;
    const executed = this.#init.executor.execute(this.#scope, calls, {
      decisions,
      usage: this.#usage,
      observer: this.#init.observer,
      checkpoint: this.#init.options.checkpoint,
      onOutcome: sink === undefined ? undefined : sendOutcomes(sink, turn),
      room: sink?.room,
    });
    return executed.then((done) => this.#addResults(done));
  }

  /** Adds the outcomes of a turn's calls to the conversation; returns where they paused, if they did. */
  #addResults({ outcomes, paused }: ExecutedCalls): PausedCalls | undefined {
    this.#lastOutcomes = outcomes;
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
    // Media a tool returned, where the provider takes none in a tool result: a user message after the batch.
    if (paused === undefined && !this.#scope.adapter.capabilities.mediaInToolResults) {
      const shown = toolMediaMessage(this.#messages);
      if (shown !== undefined) this.#messages.push(shown);
    }
    this.checkBudget();
    if (typeof this.#toolChoice === 'object') this.#toolChoice = 'auto';
    return paused;
  }

  /** The response of an evaluation paused in turn `turn`, with the state to resume from. */
  #interrupt(paused: PausedCalls, turn: number): InterruptedResponse {
    return interruptedResponse(this.#fields(turn), paused.pending, this.#state(paused, turn));
  }

  /** What every response of this evaluation reports, ending in turn `turn`. */
  #fields(turn: number) {
    return { scope: this.#scope, toolCalls: this.#toolCalls, turn, usage: this.#usage };
  }

  /** The state that resumes the evaluation at `paused`, in turn `turn`. */
  #state(paused: PausedCalls, turn: number): EvaluationState {
    return saveEvaluationState({
      scope: this.#scope,
      messages: this.#messages,
      paused,
      usage: this.#usage,
      toolChoice: this.#toolChoice,
      turn,
      maxTurns: this.#init.maxTurns,
      elapsedMs: Math.max(0, this.#init.clock.now() - this.#started),
      clock: this.#init.clock,
      signer: this.#init.signer,
    });
  }

  /**
   * Tells the checkpoint, if any, that `calls` of turn `turn` are about to run;
   * `undefined` (nothing to wait for) without a checkpoint or calls.
   */
  #checkpointTurn(
    calls: readonly ProviderToolCall[],
    turn: number,
    decisions: ReadonlyMap<string, ApprovalDecision> | undefined,
  ): Promise<void> | void {
    const checkpoint = this.#init.options.checkpoint;
    if (checkpoint?.turnStarted === undefined || calls.length === 0) return;
    const decided = decisions === undefined ? [] : [...decisions.values()];
    return checkpoint.turnStarted(this.#state({ pending: [], remaining: calls, decided }, turn));
  }

  /**
   * Parses the structured output of the final answer, records `PromptExecuted`
   * and builds the response; `undefined` when an answer guardrail sends the
   * answer back to the model (its reason joins the conversation).
   */
  async finish(answer: ProviderTurn, turn: number): Promise<CompletedResponse<O> | undefined> {
    const scope = this.#scope;
    this.stopIfOver('while finishing the answer', 'response');
    const result = await parseAnswer(answer, this.#output, (error) =>
      this.fail(error.message, 'response', { cause: error, providerPayload: answer.raw }),
    );
    const response = completedResponse<O>(this.#fields(turn), result);
    this.#answers += 1;
    const retry = await guardAnswer(scope, response, this.#answers, this.#init.observer);
    if (retry !== undefined) {
      this.#messages.push(...answerSentBack(answer, retry));
      return undefined;
    }
    recordPromptExecuted(
      scope,
      response,
      Math.max(0, this.#init.clock.now() - this.#started),
      (message, extra) => this.fail(message, 'response', extra),
      servedBy(answer, scope.adapter),
    );
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

  /** Throws the error that stops the evaluation when its deadline passed or it was cancelled. */
  private stopIfOver(activity: string, phase: PromptEvaluationPhase): void {
    const stop = stopIfOver(this.#scope, activity, phase);
    if (stop !== undefined) throw stop;
  }

  private checkBudget(): void {
    checkBudget(this.#scope, this.#usage);
  }
}
