import type { CircuitState } from './circuit-breaker.js';
import type { ProviderFailureKind } from './provider-failure-kind.js';

/**
 * What a {@link FallbackAdapter} or {@link RoutingAdapter} reports to its
 * `onEvent` option (log it, count it, or pass it to `recordFallback` from
 * `affordance/otel`, which adds it to the request's span):
 *
 * - `fallback`: member `member` failed with a failure the adapter falls back
 *   on, before any part of the turn reached the caller; the next member whose
 *   circuit admits a request is tried.
 * - `circuit`: member `member`'s circuit changed state (see {@link CircuitState});
 *   `openUntil` is when an open circuit is probed again.
 * - `items-dropped`: member `member` received a conversation holding provider
 *   items another member produced (`servedBy`): they were left out of its
 *   request, and the turn went in as its text and tool calls.
 */
export type FallbackEvent =
  | {
      readonly type: 'fallback';
      /** The request's turn (0 first). */
      readonly turn: number;
      /** The id of the member that failed. */
      readonly member: string;
      /** How it failed, when the failure is one of the {@link ProviderFailureKind}s. */
      readonly kind: ProviderFailureKind | undefined;
      /** What it threw. */
      readonly error: unknown;
    }
  | {
      readonly type: 'circuit';
      /** The id of the member whose circuit changed. */
      readonly member: string;
      /** The new state. */
      readonly state: CircuitState;
      /** When it changed (epoch milliseconds, on the adapter's clock). */
      readonly at: number;
      /** For `open`: when the member is probed again (epoch milliseconds). */
      readonly openUntil: number | undefined;
    }
  | {
      readonly type: 'items-dropped';
      /** The request's turn (0 first). */
      readonly turn: number;
      /** The id of the member the request went to. */
      readonly member: string;
      /** The id of the member that produced the items. */
      readonly servedBy: string;
      /** How many items were left out. */
      readonly count: number;
      /** Their `type` fields, where they have one (`reasoning`, `thinking`, `web_search_call`...). */
      readonly itemTypes: readonly string[];
    };
