import { context, type Tracer } from '@opentelemetry/api';

import type {
  ApprovalDecision,
  DirectCallStart,
  EvaluationObserver,
  ToolCallObserver,
} from '../index.js';
import type { ProviderRequest, ProviderToolCall, ProviderTurn } from '../provider/index.js';

import type { EvaluationTrace } from './evaluation-trace.js';
import type { GenAiInstruments } from './gen-ai-instruments.js';
import { ToolCallSpan } from './tool-call-span.js';

/**
 * Follows a call made with `runtime.callTool` (e.g. from an MCP client): its
 * `execute_tool {name}` span is a child of the span active where the call
 * started (the HTTP request's, when the server is instrumented), with no
 * `invoke_agent` span around it: no model is involved. @internal
 */
export class DirectCallTrace implements EvaluationObserver {
  readonly #trace: EvaluationTrace;

  constructor(
    tracer: Tracer,
    instruments: GenAiInstruments,
    start: DirectCallStart,
    captureContent: boolean,
  ) {
    this.#trace = {
      tracer,
      instruments,
      context: context.active(),
      captureContent,
      provider: 'none',
      model: undefined,
      evaluationId: start.evaluationId,
      sessionId: start.sessionId,
    };
  }

  startToolCall(call: ProviderToolCall, decision: ApprovalDecision | undefined): ToolCallObserver {
    return new ToolCallSpan(this.#trace, call, decision);
  }

  // A direct call makes no request and ends with its tool call: the evaluation hooks do nothing.
  observeRequest(
    _request: ProviderRequest,
    send: () => Promise<ProviderTurn>,
  ): Promise<ProviderTurn> {
    return send();
  }

  nativeCall(): void {
    // No provider runs tools for a direct call.
  }

  completed(): void {
    // Nothing to close: the tool call's span ended with it.
  }

  paused(): void {
    // A direct call never pauses: its approval is decided on the spot.
  }

  failed(): void {
    // A failure reached the tool call's span already.
  }
}
