import {
  context,
  type Attributes,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type {
  ApprovalDecision,
  ToolCallEnd,
  ToolCallEndOutcome,
  ToolCallObserver,
  ToolInvoked,
} from '../index.js';
import type { ProviderToolCall } from '../provider/index.js';

import { seconds } from './chat-span.js';
import { argumentsText } from './content-messages.js';
import type { EvaluationTrace } from './evaluation-trace.js';
import { Affordance, Events, GenAi } from './gen-ai-attributes.js';
import { errorType } from './record-error.js';

/** `error.type` of a call that did not succeed, by how it ended. */
const OUTCOME_ERROR: Partial<Record<ToolCallEndOutcome, string>> = {
  failure: 'tool_error',
  unknown: 'interrupted',
  denied: 'denied',
  timeout: 'timeout',
};

/**
 * One local tool call's `execute_tool {name}` span, child of the
 * evaluation's span. The call runs in the span's context, so a nested
 * evaluation's span is its child. Records the outcome, denials, approvals and
 * rollbacks as events, and the `gen_ai.execute_tool.duration` metric. @internal
 */
export class ToolCallSpan implements ToolCallObserver {
  readonly #evaluation: EvaluationTrace;
  readonly #span: Span;
  readonly #name: string;
  #decision: ApprovalDecision | undefined;
  readonly #started = performance.now();

  constructor(
    evaluation: EvaluationTrace,
    call: ProviderToolCall,
    decision: ApprovalDecision | undefined,
  ) {
    this.#evaluation = evaluation;
    this.#name = call.name;
    this.#decision = decision;
    this.#span = startToolSpan(evaluation, call.name, call.callId, 'function');
    if (decision !== undefined) {
      this.#span.addEvent(Events.approvalDecided, { [Affordance.approved]: decision.approved });
    }
    if (evaluation.captureContent) {
      this.#span.setAttribute(GenAi.toolArguments, argumentsText(call.arguments));
    }
  }

  run<T>(invoke: () => T): T {
    return context.with(trace.setSpan(this.#evaluation.context, this.#span), invoke);
  }

  ended(end: ToolCallEnd): void {
    const span = this.#span;
    const capture = this.#evaluation.captureContent;
    span.setAttribute(Affordance.outcome, end.outcome);
    if (end.outcome === 'pending') {
      this.#approvalRequested(end.reason);
      span.end();
      return;
    }
    if (end.outcome === 'deferred') {
      span.end();
      return;
    }
    const type = end.outcome === 'stopped' ? errorType(end.error) : OUTCOME_ERROR[end.outcome];
    if (end.outcome === 'denied') span.addEvent(Events.denied, this.#denial(end.event));
    if (end.rolledBack) span.addEvent(Events.rolledBack);
    // What the handler threw, with its stack, where content may be recorded (its message may quote data).
    if (capture && end.thrown !== undefined) {
      span.recordException(end.thrown instanceof Error ? end.thrown : thrownText(end.thrown));
    }
    if (capture && end.event !== undefined) {
      span.setAttribute(GenAi.toolResult, end.event.renderedMessage);
    }
    if (type !== undefined) {
      span.setAttribute(GenAi.errorType, type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: type });
    }
    span.end();
    recordToolDuration(this.#evaluation, this.#name, 'function', seconds(this.#started), type);
  }

  /**
   * The call waited for approval and `decision` came within the same call
   * (`runtime.callTool`): both go on this span, which the decided call ends.
   */
  decided(reason: string, decision: ApprovalDecision): void {
    this.#approvalRequested(reason);
    this.#decision = decision;
    this.#span.addEvent(Events.approvalDecided, { [Affordance.approved]: decision.approved });
  }

  /** The request-for-approval event; its reason (which may quote the arguments) only with content. */
  #approvalRequested(reason: string | undefined): void {
    const capture = this.#evaluation.captureContent && reason !== undefined;
    this.#span.addEvent(Events.approvalRequested, capture ? { [Affordance.reason]: reason } : {});
  }

  /** The denial event's attributes: who refused, and (with content) what the model read. */
  #denial(event: ToolInvoked | undefined): Attributes {
    const attributes: Attributes = {
      [Affordance.deniedBy]: this.#decision?.approved === false ? 'person' : 'policy',
    };
    if (this.#evaluation.captureContent && event !== undefined) {
      attributes[Affordance.denialMessage] = event.result.message;
    }
    return attributes;
  }
}

/**
 * Records a call the provider ran itself (a native tool) as an
 * `execute_tool` span of type `extension` that ends at once: the runtime
 * learns of it only with the answer. @internal
 */
export function recordNativeCall(evaluation: EvaluationTrace, event: ToolInvoked): void {
  const span = startToolSpan(evaluation, event.name, event.callId, 'extension');
  const type = event.outcome === 'success' ? undefined : OUTCOME_ERROR[event.outcome];
  span.setAttribute(Affordance.outcome, event.outcome);
  if (evaluation.captureContent) {
    span.setAttribute(GenAi.toolArguments, argumentsText(event.rawArguments));
    span.setAttribute(GenAi.toolResult, event.renderedMessage);
  }
  if (type !== undefined) {
    span.setAttribute(GenAi.errorType, type);
    span.setStatus({ code: SpanStatusCode.ERROR, message: type });
  }
  span.end();
  recordToolDuration(evaluation, event.name, 'extension', (event.durationMs ?? 0) / 1000, type);
}

function startToolSpan(
  evaluation: EvaluationTrace,
  name: string,
  callId: string | undefined,
  type: 'function' | 'extension',
): Span {
  const attributes: Attributes = {
    [GenAi.operationName]: 'execute_tool',
    [GenAi.toolName]: name,
    [GenAi.toolType]: type,
    [Affordance.evaluationId]: evaluation.evaluationId,
  };
  if (callId !== undefined) attributes[GenAi.toolCallId] = callId;
  return evaluation.tracer.startSpan(
    `execute_tool ${name}`,
    { kind: SpanKind.INTERNAL, attributes },
    evaluation.context,
  );
}

function recordToolDuration(
  evaluation: EvaluationTrace,
  name: string,
  type: 'function' | 'extension',
  value: number,
  error: string | undefined,
): void {
  const attributes: Attributes = {
    [GenAi.operationName]: 'execute_tool',
    [GenAi.toolName]: name,
    [GenAi.toolType]: type,
  };
  if (error !== undefined) attributes[GenAi.errorType] = error;
  evaluation.instruments.toolDuration.record(value, attributes);
}

/** A thrown value that is not an `Error`, as text (a value whose conversion throws is named by its type). */
function thrownText(value: unknown): string {
  try {
    return String(value);
  } catch {
    return `a thrown ${typeof value}`;
  }
}
