import { context, type Attributes, type Span, SpanKind, trace } from '@opentelemetry/api';
import type { ProviderRequest, ProviderTurn } from '../provider/index.js';

import { inputMessages, outputMessages } from './content-messages.js';
import type { EvaluationTrace } from './evaluation-trace.js';
import { Affordance, GenAi } from './gen-ai-attributes.js';
import { recordError } from './record-error.js';
import { setUsageAttributes } from './usage-attributes.js';

/**
 * Runs one provider request in a `chat {model}` client span, child of the
 * evaluation's span, with the request made in the span's context (so the
 * HTTP client's own spans and {@link recordRetry} land under it); records
 * the provider that served (a fallback or routing member), the response's model, finish reason and usage, and the
 * `gen_ai.client.operation.duration` and `gen_ai.client.token.usage` metrics. @internal
 */
export function observeChat(
  evaluation: EvaluationTrace,
  request: ProviderRequest,
  send: () => Promise<ProviderTurn>,
): Promise<ProviderTurn> {
  const model = evaluation.model;
  const span = evaluation.tracer.startSpan(
    model === undefined ? 'chat' : `chat ${model}`,
    { kind: SpanKind.CLIENT, attributes: chatAttributes(evaluation, request) },
    evaluation.context,
  );
  if (evaluation.captureContent) {
    span.setAttribute(GenAi.inputMessages, inputMessages(request.messages));
  }
  const started = performance.now();
  // An async step, so that `send` throwing at once rejects like a failed request.
  const sent = context.with(trace.setSpan(evaluation.context, span), async () => await send());
  return sent.then(
    (answer) => {
      answered(evaluation, span, answer, started);
      return answer;
    },
    (error: unknown) => {
      const type = recordError(span, error, evaluation.captureContent);
      span.end();
      const attributes = metricAttributes(evaluation, undefined);
      attributes[GenAi.errorType] = type;
      evaluation.instruments.operationDuration.record(seconds(started), attributes);
      throw error;
    },
  );
}

function chatAttributes(evaluation: EvaluationTrace, request: ProviderRequest): Attributes {
  const attributes: Attributes = {
    [GenAi.operationName]: 'chat',
    [GenAi.providerName]: evaluation.provider,
    [GenAi.conversationId]: evaluation.sessionId,
    [Affordance.evaluationId]: evaluation.evaluationId,
    [Affordance.turn]: request.turn,
  };
  if (evaluation.model !== undefined) attributes[GenAi.requestModel] = evaluation.model;
  if (request.output !== undefined) attributes[GenAi.outputType] = 'json';
  return attributes;
}

/** Ends the span of a request that was answered, and records its metrics. */
function answered(
  evaluation: EvaluationTrace,
  span: Span,
  answer: ProviderTurn,
  started: number,
): void {
  // The member that served (FallbackAdapter, RoutingAdapter) and the model it reports.
  const provider = answer.provider ?? evaluation.provider;
  if (provider !== evaluation.provider) span.setAttribute(GenAi.providerName, provider);
  const responseModel = answer.model ?? stringField(answer.raw, 'model');
  const responseId = stringField(answer.raw, 'id');
  if (responseModel !== undefined) span.setAttribute(GenAi.responseModel, responseModel);
  if (responseId !== undefined) span.setAttribute(GenAi.responseId, responseId);
  if (answer.finishReason !== undefined) {
    span.setAttribute(GenAi.finishReasons, [answer.finishReason]);
  }
  span.setAttribute(Affordance.toolCalls, answer.toolCalls?.length ?? 0);
  const usage = answer.usage;
  setUsageAttributes(span, usage);
  if (evaluation.captureContent) span.setAttribute(GenAi.outputMessages, outputMessages(answer));
  span.end();
  const attributes = metricAttributes(evaluation, responseModel);
  attributes[GenAi.providerName] = provider;
  const instruments = evaluation.instruments;
  instruments.operationDuration.record(seconds(started), attributes);
  if (usage?.inputTokens !== undefined) {
    instruments.tokenUsage.record(usage.inputTokens, withTokenType(attributes, 'input'));
  }
  if (usage?.outputTokens !== undefined) {
    instruments.tokenUsage.record(usage.outputTokens, withTokenType(attributes, 'output'));
  }
}

function metricAttributes(
  evaluation: EvaluationTrace,
  responseModel: string | undefined,
): Attributes {
  const attributes: Attributes = {
    [GenAi.operationName]: 'chat',
    [GenAi.providerName]: evaluation.provider,
  };
  if (evaluation.model !== undefined) attributes[GenAi.requestModel] = evaluation.model;
  if (responseModel !== undefined) attributes[GenAi.responseModel] = responseModel;
  return attributes;
}

function withTokenType(attributes: Attributes, type: 'input' | 'output'): Attributes {
  const tagged = Object.assign({}, attributes);
  tagged[GenAi.tokenType] = type;
  return tagged;
}

/**
 * A string field of the provider's raw response, when it has one: the OpenAI
 * and Anthropic responses carry the answering `model` and the response `id`.
 */
function stringField(raw: unknown, key: string): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const value = (raw as Record<string, unknown>)[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Seconds since `started` (a `performance.now()` reading). */
export function seconds(started: number): number {
  return Math.max(0, performance.now() - started) / 1000;
}
