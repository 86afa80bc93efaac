import { type ProviderAdapter, RoutingAdapter } from 'affordance/provider';

// #region routing
/**
 * A small model for triage prompts and for turns that only read tool results,
 * a large one for the first turn of everything else.
 */
export function routedProvider(small: ProviderAdapter, large: ProviderAdapter): RoutingAdapter {
  return new RoutingAdapter({
    routes: { small, large },
    route: (request) => {
      if (request.prompt.ns.startsWith('triage')) return 'small';
      return request.turn === 0 ? 'large' : 'small';
    },
  });
}
// #endregion routing
