import type { Container } from 'inversify';

import { ConfigurationError } from '../core/errors/configuration-error.js';
import { ProviderAdapter } from '../provider/provider-adapter.js';

/**
 * The adapter bound to `ProviderAdapter` in `container`, for the evaluation of
 * the prompt labelled `label`.
 * @throws ConfigurationError when none is bound.
 */
export async function boundAdapter(container: Container, label: string): Promise<ProviderAdapter> {
  if (!container.isBound(ProviderAdapter)) {
    throw new ConfigurationError({
      subject: `Evaluation of prompt '${label}'`,
      problem:
        'has no provider adapter: none was passed as options.adapter and none is bound to ProviderAdapter.',
      fix:
        'Bind one in the container, e.g. `container.bind(ProviderAdapter).to(OpenAIAdapter).inSingletonScope()`, ' +
        'or pass it: runtime.evaluate(prompt, { adapter }).',
    });
  }
  return await container.getAsync(ProviderAdapter);
}
