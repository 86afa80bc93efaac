import type { DynamicModule } from '@nestjs/common';

import type { ProviderAdapter } from 'affordance';
import { AffordanceModule } from 'affordance/nest';

// #region nest
/** The module of an application that falls back from one provider to another. */
export function affordanceWithFallback(
  primary: () => ProviderAdapter,
  backup: () => ProviderAdapter,
): DynamicModule {
  return AffordanceModule.forRoot({
    // A list: served by a FallbackAdapter over the adapters, in order.
    adapter: [primary, backup],
    fallback: { circuitBreaker: { failureThreshold: 2, coolDownMs: 30_000 } },
  });
}
// #endregion nest
