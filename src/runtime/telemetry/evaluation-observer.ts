import type { ProviderToolCall, ProviderTurn } from '../../provider/conversation.js';
import type { ProviderRequest } from '../../provider/provider-request.js';
import type { ApprovalDecision } from '../approval/approval-decision.js';
import type { ToolInvoked } from '../events/tool-invoked.js';
import type { LoopIntervention } from '../events/loop-intervention.js';
import type { GuardrailChecked } from '../events/guardrail-checked.js';
import type { CompletedResponse, InterruptedResponse } from '../prompt-response.js';
import type { ToolCallObserver } from './tool-call-observer.js';

/**
 * Follows one evaluation for a {@link RuntimeTelemetry}: each provider request,
 * each tool call, and how the evaluation ended. Every method is called at most
 * once per request, call or evaluation, in the order things happen.
 */
export interface EvaluationObserver {
  /**
   * Wraps provider request `request.turn`: `send` makes it (streamed or not)
   * and must be called exactly once; the observer returns what `send` returns,
   * or rejects with what it rejects with. Work `send` starts (the adapter's
   * HTTP client) runs in the observer's async context.
   */
  observeRequest(
    request: ProviderRequest,
    send: () => Promise<ProviderTurn>,
  ): Promise<ProviderTurn>;
  /** A call the provider ran itself (a native tool), as the session recorded it. */
  nativeCall(event: ToolInvoked): void;
  /**
   * A local tool call starts. `decision` is the person's decision when the
   * call waited for approval. The runtime runs the call through the returned
   * observer's {@link ToolCallObserver.run} and reports its end to it.
   */
  startToolCall(call: ProviderToolCall, decision: ApprovalDecision | undefined): ToolCallObserver;
  /**
   * The loop governor intervened: warned the model, stopped the evaluation
   * (`failed` follows with the `LoopStoppedError`) or sent the last-turn
   * notice. Optional: an observer without it ignores interventions.
   */
  intervention?(event: LoopIntervention): void;
  /** An input or answer guardrail decided. Optional. */
  guardrail?(event: GuardrailChecked): void;
  /** The evaluation answered. */
  completed(response: CompletedResponse): void;
  /** The evaluation paused for approval (`response.interruption.pending`). */
  paused(response: InterruptedResponse): void;
  /** The evaluation failed with `error` (usually a `PromptEvaluationError`). */
  failed(error: unknown): void;
}
