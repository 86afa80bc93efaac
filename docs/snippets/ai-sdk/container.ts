import { createMistral } from '@ai-sdk/mistral';
import type { Container } from 'inversify';

import { ProviderAdapter } from 'affordance';
import { AiSdkAdapter, AiSdkAdapterOptions } from 'affordance/ai-sdk';

// #region container
/** Binds Mistral through the AI SDK the way the other adapters are bound: options token, then the adapter. */
export function bindMistral(container: Container, apiKey: string, baseURL?: string): void {
  const mistral = createMistral(baseURL === undefined ? { apiKey } : { apiKey, baseURL });
  container.bind(AiSdkAdapterOptions).toConstantValue({
    model: mistral('mistral-small-latest'),
    secrets: [apiKey],
    retry: { maxRetries: 4, maxRetryAfterMs: 30_000 },
  });
  container.bind(ProviderAdapter).to(AiSdkAdapter).inSingletonScope();
}
// #endregion container
