import { PromptEvaluationError } from '../../core/errors/prompt-evaluation-error.js';
import { requestAborted, RetryableResponseError, type RetryContext } from './send-with-retries.js';

/**
 * The error to throw for a streamed answer that failed after some of its
 * parts were delivered (what {@link streamWithRetries} throws then), when retrying is no longer possible: scrubbed of API
 * keys; the deadline or cancellation error when `context.signal` aborted;
 * the provider's own failure (a `failed` response, a refusal...) as the
 * non-streaming path reports it; otherwise a `request` error naming what
 * broke the stream.
 */
export function streamBrokeOff(
  thrown: unknown,
  attempt: number,
  context: RetryContext,
): PromptEvaluationError {
  const error = context.redactor.error(thrown);
  if (PromptEvaluationError.is(error)) return error;
  if (context.signal.aborted) return requestAborted(context, attempt, error);
  if (error instanceof RetryableResponseError) return error.final;
  const failure = context.classify(error, context.clock.now());
  const said = failure.providerMessage === undefined ? '' : `: ${failure.providerMessage.trim()}`;
  const payload: Record<string, unknown> = { ...failure.details };
  payload['attempts'] = attempt;
  return new PromptEvaluationError(
    `The ${context.provider} ${context.api} stream broke off after part of the answer was delivered ` +
      `(${failure.reason}${said}). It was not retried: a new attempt would deliver those parts again. ` +
      'Fix: run the evaluation again; if streams keep breaking off, check the network path to the ' +
      'API (a proxy or load balancer that cuts long responses).',
    { phase: 'request', prompt: context.prompt, cause: error, providerPayload: payload },
  );
}
