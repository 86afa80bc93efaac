import { trace } from '@opentelemetry/api';
import type { RetryEvent } from '../provider/index.js';

import { Affordance, Events } from './gen-ai-attributes.js';

/**
 * Records a provider retry as an `affordance.provider.retry` event (attempt,
 * wait, reason) on the active span, which is the request's `chat` span while
 * an adapter retries under {@link openTelemetry}. Pass it as the adapter's
 * `retry.onRetry`, or call it from your own. The error itself is not recorded.
 *
 * @example
 * new OpenAIAdapter(client, { model: 'gpt-5-mini', retry: { onRetry: recordRetry } });
 */
export function recordRetry(event: RetryEvent): void {
  trace.getActiveSpan()?.addEvent(Events.retry, {
    [Affordance.retryAttempt]: event.attempt,
    [Affordance.retryDelayMs]: event.delayMs,
    [Affordance.retryReason]: event.reason,
  });
}
