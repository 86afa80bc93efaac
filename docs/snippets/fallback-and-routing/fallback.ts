import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';

import { AnthropicAdapter } from 'affordance/anthropic';
import { OpenAIAdapter } from 'affordance/openai';
import { type FallbackEvent, FallbackAdapter } from 'affordance/provider';

// #region fallback
/** OpenAI first, Claude when OpenAI is rate limited, overloaded, failing or unreachable. */
export function providerWithFallback(
  openai: OpenAI,
  anthropic: Anthropic,
  log: (line: string) => void,
): FallbackAdapter {
  return new FallbackAdapter(
    [
      // No retries on the first provider: move on at its first failure.
      new OpenAIAdapter(openai, { model: 'gpt-5-mini', retry: { maxRetries: 0 } }),
      new AnthropicAdapter(anthropic, { model: 'claude-sonnet-4-6', maxTokens: 4096 }),
    ],
    {
      // The default: every kind of failure another provider may not share.
      fallbackOn: ['rate-limit', 'overloaded', 'timeout', 'server-error', 'connection'],
      // Skip a provider for a minute after 3 failures in a row, then probe it.
      circuitBreaker: { failureThreshold: 3, coolDownMs: 60_000 },
      onEvent: (event) => {
        log(describeEvent(event));
      },
    },
  );
}
// #endregion fallback

// #region describe
/** One line per fallback event, for a log. */
export function describeEvent(event: FallbackEvent): string {
  switch (event.type) {
    case 'fallback':
      return `turn ${event.turn}: ${event.member} failed (${event.kind ?? 'other'}), trying the next provider`;
    case 'circuit':
      return `${event.member}: circuit ${event.state}`;
    case 'items-dropped':
      return `turn ${event.turn}: ${event.member} did not get ${event.count} item(s) of ${event.servedBy} (${event.itemTypes.join(', ')})`;
  }
}
// #endregion describe
