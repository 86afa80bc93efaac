import type { Span } from '@opentelemetry/api';
import type { TokenUsage } from '../provider/index.js';

import { GenAi } from './gen-ai-attributes.js';

/**
 * Sets the `gen_ai.usage.*` attributes of the counts a usage reports: input,
 * output, cache reads (`cache_read.input_tokens`), cache writes
 * (`cache_creation.input_tokens`) and reasoning (`reasoning.output_tokens`).
 * @internal
 */
export function setUsageAttributes(span: Span, usage: TokenUsage | undefined): void {
  if (usage === undefined) return;
  const counts: readonly (readonly [string, number | undefined])[] = [
    [GenAi.inputTokens, usage.inputTokens],
    [GenAi.outputTokens, usage.outputTokens],
    [GenAi.cacheReadTokens, usage.cachedTokens],
    [GenAi.cacheWriteTokens, usage.cacheWriteTokens],
    [GenAi.reasoningTokens, usage.reasoningTokens],
  ];
  for (const [name, count] of counts) if (count !== undefined) span.setAttribute(name, count);
}
