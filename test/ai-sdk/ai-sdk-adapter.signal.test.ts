/**
 * Which abort signal an evaluation hands the provider package: none when
 * nothing can abort the request (no deadline, no caller's signal), so its HTTP
 * client keeps no listener for the request; a live one otherwise.
 */
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { Container } from 'inversify';

import {
  Deadline,
  installAffordance,
  MarkdownSection,
  Prompt,
  PromptEvaluationError,
} from 'affordance';
import { AiSdkAdapter } from 'affordance/ai-sdk';

const finishReason = { unified: 'stop', raw: 'stop' } as const;
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 2, text: 2, reasoning: 0 },
};

/** A v3 model object that notes the signal of each call and answers once `release` is called. */
function model(): {
  model: LanguageModelV3;
  signals: (AbortSignal | undefined)[];
  started: Promise<void>;
} {
  const signals: (AbortSignal | undefined)[] = [];
  let started!: () => void;
  const startedPromise = new Promise<void>((resolve) => {
    started = resolve;
  });
  const doGenerate = (options: LanguageModelV3CallOptions) => {
    signals.push(options.abortSignal);
    started();
    const answer = {
      content: [{ type: 'text' as const, text: 'Hi.' }],
      finishReason,
      usage,
      warnings: [],
    };
    const signal = options.abortSignal;
    if (signal === undefined) return Promise.resolve(answer);
    // With a signal, wait until it aborts or a moment passed, as an HTTP client would.
    return new Promise<typeof answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        resolve(answer);
      }, 20);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      });
    });
  };
  return {
    model: {
      specificationVersion: 'v3',
      provider: 'test.chat',
      modelId: 'test-model',
      supportedUrls: {},
      doGenerate,
      doStream: () => Promise.reject(new Error('not streamed here')),
    },
    signals,
    started: startedPromise,
  };
}

const prompt = new Prompt({
  ns: 'test',
  key: 'signal',
  sections: [new MarkdownSection({ key: 'hi', title: 'Hi', template: 'Say hi.' })],
});

describe('AiSdkAdapter request signal', () => {
  it('hands the model no signal when nothing can abort the evaluation', async () => {
    const runtime = installAffordance(new Container());
    const fake = model();

    const response = await runtime.evaluate(prompt, {
      adapter: new AiSdkAdapter({ model: fake.model }),
    });

    expect(response.text).toBe('Hi.');
    expect(fake.signals).toEqual([undefined]);
  });

  it("hands it a signal that follows the caller's signal or the deadline when there is one", async () => {
    const runtime = installAffordance(new Container());
    const withDeadline = model();
    await runtime.evaluate(prompt, {
      adapter: new AiSdkAdapter({ model: withDeadline.model }),
      deadline: Deadline.in(60_000),
    });
    const cancelled = model();
    const caller = new AbortController();

    const evaluation = runtime.evaluate(prompt, {
      adapter: new AiSdkAdapter({ model: cancelled.model }),
      signal: caller.signal,
    });
    await cancelled.started;
    caller.abort(new Error('the person left'));

    await expect(evaluation).rejects.toBeInstanceOf(PromptEvaluationError);
    expect(withDeadline.signals).toEqual([expect.any(AbortSignal)]);
    expect(cancelled.signals).toHaveLength(1);
    expect(cancelled.signals[0]?.aborted).toBe(true);
  });
});
