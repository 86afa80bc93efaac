import {
  context,
  type Attributes,
  type Span,
  SpanKind,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type {
  ApprovalDecision,
  CompletedResponse,
  EvaluationObserver,
  EvaluationStart,
  InterruptedResponse,
  LoopIntervention,
  GuardrailChecked,
  PromptResponseFields,
  ToolCallObserver,
  ToolInvoked,
} from '../index.js';
import type { ProviderRequest, ProviderToolCall, ProviderTurn } from '../provider/index.js';

import { observeChat } from './chat-span.js';
import { finalAnswer, systemInstructions, userInput } from './content-messages.js';
import type { EvaluationTrace } from './evaluation-trace.js';
import { Affordance, Events, GenAi } from './gen-ai-attributes.js';
import type { GenAiInstruments } from './gen-ai-instruments.js';
import { recordError } from './record-error.js';
import { recordNativeCall, ToolCallSpan } from './tool-call-span.js';
import { setUsageAttributes } from './usage-attributes.js';

/**
 * One evaluation's `invoke_agent {prompt}` span (kind internal: the agent runs
 * in this process), child of the span active where the evaluation started (a
 * nested evaluation: the enclosing tool call's). Its requests and tool calls
 * are its children. @internal
 */
export class EvaluationSpan implements EvaluationObserver {
  readonly #span: Span;
  readonly #trace: EvaluationTrace;

  constructor(
    tracer: Tracer,
    instruments: GenAiInstruments,
    start: EvaluationStart,
    captureContent: boolean,
  ) {
    const parent = context.active();
    const model = start.adapter.model;
    const span = tracer.startSpan(
      `invoke_agent ${start.prompt.label}`,
      { kind: SpanKind.INTERNAL, attributes: agentAttributes(start, model) },
      parent,
    );
    if (start.resumed) span.addEvent(Events.resumed);
    if (captureContent) {
      span.setAttribute(GenAi.systemInstructions, systemInstructions(start.renderedPrompt));
      if (start.input !== undefined) span.setAttribute(GenAi.inputMessages, userInput(start.input));
    }
    this.#span = span;
    this.#trace = {
      tracer,
      instruments,
      context: trace.setSpan(parent, span),
      captureContent,
      provider: start.adapter.name,
      model,
      evaluationId: start.evaluationId,
      sessionId: start.sessionId,
    };
  }

  observeRequest(
    request: ProviderRequest,
    send: () => Promise<ProviderTurn>,
  ): Promise<ProviderTurn> {
    return observeChat(this.#trace, request, send);
  }

  nativeCall(event: ToolInvoked): void {
    recordNativeCall(this.#trace, event);
  }

  startToolCall(call: ProviderToolCall, decision: ApprovalDecision | undefined): ToolCallObserver {
    return new ToolCallSpan(this.#trace, call, decision);
  }

  intervention(event: LoopIntervention): void {
    const attributes: Attributes = {
      [Affordance.interventionAction]: event.action,
      [Affordance.interventionReason]: event.reason,
      [Affordance.turn]: event.turn,
    };
    if (event.tool !== undefined) attributes[Affordance.interventionTool] = event.tool;
    this.#span.addEvent(Events.intervention, attributes);
  }

  guardrail(event: GuardrailChecked): void {
    const attributes: Attributes = {
      [Affordance.guardrailStage]: event.stage,
      [Affordance.guardrailPolicy]: event.policy,
      [Affordance.guardrailVerdict]: event.verdict,
    };
    if (event.attempt !== undefined) attributes[Affordance.guardrailAttempt] = event.attempt;
    this.#span.addEvent(Events.guardrail, attributes);
  }

  completed(response: CompletedResponse): void {
    this.#summarise(response, 'completed');
    if (this.#trace.captureContent) {
      this.#span.setAttribute(GenAi.outputMessages, finalAnswer(response.text, response.output));
    }
    this.#span.end();
  }

  paused(response: InterruptedResponse): void {
    this.#summarise(response, 'interrupted');
    const pending = response.interruption.pending;
    this.#span.addEvent(Events.paused, {
      [Affordance.pendingCalls]: pending.length,
      [Affordance.pendingTools]: pending.map((call) => call.name),
    });
    this.#span.end();
  }

  failed(error: unknown): void {
    this.#span.setAttribute(Affordance.status, 'failed');
    recordError(this.#span, error, this.#trace.captureContent);
    this.#span.end();
  }

  /** The evaluation's totals: usage, requests made, how it ended. */
  #summarise(response: PromptResponseFields, status: string): void {
    const span = this.#span;
    span.setAttribute(Affordance.status, status);
    span.setAttribute(Affordance.turns, response.turns);
    setUsageAttributes(span, response.usage);
  }
}

function agentAttributes(start: EvaluationStart, model: string | undefined): Attributes {
  const attributes: Attributes = {
    [GenAi.operationName]: 'invoke_agent',
    [GenAi.providerName]: start.adapter.name,
    [GenAi.agentName]: start.prompt.label,
    [GenAi.conversationId]: start.sessionId,
    [GenAi.outputType]: start.structuredOutput ? 'json' : 'text',
    [Affordance.evaluationId]: start.evaluationId,
    [Affordance.sessionId]: start.sessionId,
    [Affordance.streamed]: start.streamed,
    [Affordance.resumed]: start.resumed,
  };
  if (model !== undefined) attributes[GenAi.requestModel] = model;
  return attributes;
}
