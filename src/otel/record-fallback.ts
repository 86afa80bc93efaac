import { trace } from '@opentelemetry/api';
import type { FallbackEvent } from '../provider/index.js';

import { Affordance, Events } from './gen-ai-attributes.js';

/**
 * Records a `FallbackAdapter` or `RoutingAdapter` event on the active span,
 * which is the request's `chat` span while the adapter runs under
 * {@link openTelemetry}: `affordance.provider.fallback` (the member that failed
 * and its failure kind), `affordance.provider.circuit` (a member's circuit
 * changed state) and `affordance.provider.items_dropped` (provider items of
 * another member left out of a request). Pass it as the adapter's `onEvent`,
 * or call it from your own. The error itself is not recorded.
 *
 * @example
 * new FallbackAdapter([openai, anthropic], { onEvent: recordFallback });
 */
export function recordFallback(event: FallbackEvent): void {
  const span = trace.getActiveSpan();
  if (span === undefined) return;
  switch (event.type) {
    case 'fallback':
      span.addEvent(Events.fallback, {
        [Affordance.fallbackMember]: event.member,
        [Affordance.fallbackKind]: event.kind ?? 'other',
      });
      return;
    case 'circuit':
      span.addEvent(Events.circuit, {
        [Affordance.fallbackMember]: event.member,
        [Affordance.fallbackState]: event.state,
      });
      return;
    case 'items-dropped':
      span.addEvent(Events.itemsDropped, {
        [Affordance.fallbackMember]: event.member,
        [Affordance.fallbackServedBy]: event.servedBy,
        [Affordance.fallbackCount]: event.count,
        [Affordance.fallbackItemTypes]: [...event.itemTypes],
      });
      return;
  }
}
