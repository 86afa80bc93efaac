import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider';

import { AiSdkAdapter } from 'affordance/ai-sdk';
import type { ProviderTurn } from 'affordance/provider';

import { collect, providerRequest } from '../support/openai-streams.js';
import { orderDesk } from '../support/order-desk.js';

// A v3 usage as the AI SDK's Anthropic and Bedrock packages report it: cache
// reads and writes apart from the uncached input, reasoning apart from text.
const usage = {
  inputTokens: { total: 100, noCache: 20, cacheRead: 60, cacheWrite: 20 },
  outputTokens: { total: 30, text: 18, reasoning: 12 },
};
const finishReason = { unified: 'stop', raw: 'end_turn' } as const;

/** A model object of the v3 specification answering "Hi." with `usage`, whole or streamed. */
function model(): LanguageModelV3 {
  const parts: LanguageModelV3StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: 'Hi.' },
    { type: 'text-end', id: 't1' },
    { type: 'finish', usage, finishReason },
  ];
  return {
    specificationVersion: 'v3',
    provider: 'anthropic.messages',
    modelId: 'claude-test',
    supportedUrls: {},
    doGenerate: () =>
      Promise.resolve({
        content: [{ type: 'text', text: 'Hi.' }],
        finishReason,
        usage,
        warnings: [],
      }),
    doStream: () =>
      Promise.resolve({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      }),
  };
}

const expected = {
  inputTokens: 100,
  outputTokens: 30,
  cachedTokens: 60,
  cacheWriteTokens: 20,
  reasoningTokens: 12,
  totalTokens: 130,
};

describe('AiSdkAdapter usage', () => {
  it('should read cache reads, cache writes and reasoning tokens of a whole answer', async () => {
    const adapter = new AiSdkAdapter({ model: model() });

    const turn = await adapter.request(providerRequest(adapter, orderDesk([])));

    expect(turn.usage?.toJSON()).toEqual(expected);
  });

  it('should read the same counts from the finish part of a stream', async () => {
    const adapter = new AiSdkAdapter({ model: model() });

    const { parts, error } = await collect(adapter.stream(providerRequest(adapter, orderDesk([]))));

    expect(error).toBeUndefined();
    const last = parts.at(-1) as { type: string; turn: ProviderTurn };
    expect(last.type).toBe('turn');
    expect(last.turn.usage?.toJSON()).toEqual(expected);
  });
});
