import type { ProviderToolCall, ProviderTurn } from '../../provider/conversation.js';
import type { ProviderRequest } from '../../provider/provider-request.js';
import type { ApprovalDecision } from '../approval/approval-decision.js';
import type { ToolInvoked } from '../events/tool-invoked.js';
import type { CompletedResponse, InterruptedResponse } from '../prompt-response.js';
import type { EvaluationObserver } from './evaluation-observer.js';
import type { ToolCallEnd, ToolCallObserver } from './tool-call-observer.js';

/**
 * Follows the one call of `runtime.callTool` (`call-tool.ts`) for the
 * telemetry's observer. A call that needs approval runs through the executor
 * twice, once to find it pending and once with the decision: this keeps one
 * call observer across both (one `execute_tool` span for one call), holding
 * the `pending` end back and telling the observer the decision instead
 * ({@link ToolCallObserver.decided}). An observer without `decided` sees both
 * runs, as an evaluation that pauses and resumes would show them. @internal
 */
export class DirectCallObserver implements EvaluationObserver, ToolCallObserver {
  readonly #evaluation: EvaluationObserver;
  /** The call's observer, from the first run on. */
  #call: ToolCallObserver | undefined;
  /** The first run's `pending` end, held back until the decision comes. */
  #pending: ToolCallEnd | undefined;
  /** Whether the decided run goes on under {@link DirectCallObserver.#call}. */
  #continues = false;

  constructor(evaluation: EvaluationObserver) {
    this.#evaluation = evaluation;
  }

  startToolCall(call: ProviderToolCall, decision: ApprovalDecision | undefined): ToolCallObserver {
    if (this.#continues) return this;
    this.#call = this.#evaluation.startToolCall(call, decision);
    return this.#call.decided === undefined ? this.#call : this;
  }

  run<T>(invoke: () => T): T {
    return (this.#call as ToolCallObserver).run(invoke);
  }

  ended(end: ToolCallEnd): void {
    if (end.outcome === 'pending' && !this.#continues) this.#pending = end;
    else this.#call?.ended(end);
  }

  /** The person's `decision` on the call the first run left pending: its run goes on under the same observer. */
  decide(decision: ApprovalDecision): void {
    const pending = this.#pending;
    const call = this.#call;
    if (pending === undefined || call?.decided === undefined) return;
    this.#pending = undefined;
    this.#continues = true;
    call.decided(pending.reason ?? '', decision);
  }

  /** Deciding the pending call failed with `error` (the approver threw): the call ends there, unrecorded. */
  abandon(error: unknown): void {
    if (this.#pending === undefined) return;
    this.#pending = undefined;
    this.#call?.ended({
      outcome: 'stopped',
      event: undefined,
      rolledBack: false,
      error,
      reason: undefined,
    });
  }

  observeRequest(
    request: ProviderRequest,
    send: () => Promise<ProviderTurn>,
  ): Promise<ProviderTurn> {
    return this.#evaluation.observeRequest(request, send);
  }

  nativeCall(event: ToolInvoked): void {
    this.#evaluation.nativeCall(event);
  }

  completed(response: CompletedResponse): void {
    this.#evaluation.completed(response);
  }

  paused(response: InterruptedResponse): void {
    this.#evaluation.paused(response);
  }

  failed(error: unknown): void {
    this.#evaluation.failed(error);
  }
}
