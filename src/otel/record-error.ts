import { type Span, SpanStatusCode } from '@opentelemetry/api';
import { PromptEvaluationError } from '../index.js';

import { Affordance, GenAi } from './gen-ai-attributes.js';

/**
 * The `error.type` of a thrown value: its class name (`PromptEvaluationError`,
 * `TypeError`, ...), low in cardinality as the conventions ask, or `_OTHER`. @internal
 */
export function errorType(error: unknown): string {
  if (error instanceof Error) {
    const name = error.constructor.name;
    return name === '' ? error.name : name;
  }
  return '_OTHER';
}

/**
 * Marks `span` as failed with `error`: `error.type`, the evaluation phase of a
 * `PromptEvaluationError`, and an error status. The message (which may quote
 * the model's answer, a tool's arguments or the provider's reply) is recorded,
 * as an exception event, only when content is captured. Returns the type. @internal
 */
export function recordError(span: Span, error: unknown, captureContent: boolean): string {
  const type = errorType(error);
  span.setAttribute(GenAi.errorType, type);
  if (PromptEvaluationError.is(error)) span.setAttribute(Affordance.errorPhase, error.phase);
  if (captureContent) {
    const message = error instanceof Error ? error.message : String(error);
    span.recordException(error instanceof Error ? error : message);
    span.setStatus({ code: SpanStatusCode.ERROR, message });
  } else {
    span.setStatus({ code: SpanStatusCode.ERROR, message: type });
  }
  return type;
}
