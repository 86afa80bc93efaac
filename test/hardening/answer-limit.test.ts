import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { Container } from 'inversify';

import {
  ConfigurationError,
  type EvaluationStreamPart,
  installAffordance,
  MarkdownSection,
  Prompt,
  PromptEvaluationError,
  PromptExecuted,
  type ProviderAdapter,
  Session,
} from 'affordance';
import { AnthropicAdapter } from 'affordance/anthropic';
import { OpenAIAdapter } from 'affordance/openai';
import { DEFAULT_MAX_ANSWER_CHARS } from 'affordance/provider';
import { ScriptedAdapter } from 'affordance/testing';

import { catchRejection } from '../support/catch-error.js';
import { type HugeAnswerApi, HugeAnswerServer } from '../support/huge-answer-server.js';

/**
 * An answer far over the limit the tests set: 64 MiB of text, the size of the attack. What the
 * server could write before it learns the client left is what the sockets buffer (a few MiB), far below half.
 */
const HUGE = 64 * 1024 * 1024;
const LIMIT = 100_000;

const prompt = new Prompt({
  ns: 'hardening',
  key: 'answer-limit',
  sections: [new MarkdownSection({ key: 'ask', title: 'Ask', template: 'Answer.' })],
});

function adapterFor(server: HugeAnswerServer): ProviderAdapter {
  if (server.api === 'openai-responses') {
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: server.baseURL, maxRetries: 0 });
    return new OpenAIAdapter(client, { model: 'gpt-test' });
  }
  const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.baseURL, maxRetries: 0 });
  return new AnthropicAdapter(client, { model: 'claude-test' });
}

/** Every part of a stream, read to its end. */
async function readAll(
  stream: AsyncIterable<EvaluationStreamPart>,
): Promise<EvaluationStreamPart[]> {
  const parts: EvaluationStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

function expectAnswerTooLarge(error: unknown): void {
  expect(error).toBeInstanceOf(PromptEvaluationError);
  const failure = error as PromptEvaluationError;
  expect(failure.phase).toBe('response');
  expect(failure.message).toContain(`over maxAnswerChars (${LIMIT} characters`);
  expect(failure.message).toContain('Fix: raise maxAnswerChars');
}

describe.each<HugeAnswerApi>(['openai-responses', 'anthropic-messages'])(
  'An answer over maxAnswerChars (%s, real SDK over HTTP)',
  (api) => {
    let server: HugeAnswerServer;
    beforeEach(async () => {
      server = await HugeAnswerServer.start(api, HUGE);
    });
    afterEach(async () => {
      await server.close();
    });

    it('fails a whole answer and stops reading its body long before its end', async () => {
      const runtime = installAffordance(new Container(), { maxAnswerChars: LIMIT });
      const session = new Session();
      const error = await catchRejection(PromptEvaluationError, () =>
        runtime.evaluate(prompt, { adapter: adapterFor(server), session }),
      );
      expectAnswerTooLarge(error);
      const [sent] = await server.answers();
      expect(sent).toMatchObject({ streamed: false, cut: true });
      expect(sent?.textChars).toBeLessThan(HUGE / 2);
      expect(session.slice(PromptExecuted).all()).toHaveLength(0);
    });

    it('fails a streamed answer at the first delta over the limit and cuts the stream', async () => {
      const runtime = installAffordance(new Container());
      const session = new Session();
      const parts = await readAll(
        runtime.stream(prompt, { adapter: adapterFor(server), session, maxAnswerChars: LIMIT }),
      );
      const last = parts.at(-1);
      expect(last?.type).toBe('error');
      expectAnswerTooLarge(last?.type === 'error' ? last.error : undefined);
      const streamedChars = parts
        .map((part) => (part.type === 'text-delta' ? part.delta.length : 0))
        .reduce((sum, chars) => sum + chars, 0);
      expect(streamedChars).toBeLessThanOrEqual(LIMIT);
      const [sent] = await server.answers();
      expect(sent).toMatchObject({ streamed: true, cut: true });
      expect(sent?.textChars).toBeLessThan(HUGE / 2);
      expect(session.slice(PromptExecuted).all()).toHaveLength(0);
    });
  },
);

describe('maxAnswerChars', () => {
  it('defaults to 4 Mi characters for every adapter, even one that returns its turn whole', async () => {
    const runtime = installAffordance(new Container());
    expect(runtime.maxAnswerChars).toBe(DEFAULT_MAX_ANSWER_CHARS);
    const over = 'y'.repeat(DEFAULT_MAX_ANSWER_CHARS + 1);
    const whole = await catchRejection(PromptEvaluationError, () =>
      runtime.evaluate(prompt, { adapter: new ScriptedAdapter([{ text: over }]) }),
    );
    expect(whole.message).toContain(`over maxAnswerChars (${DEFAULT_MAX_ANSWER_CHARS}`);
    const parts = await readAll(
      runtime.stream(prompt, { adapter: new ScriptedAdapter([{ text: over }]) }),
    );
    const last = parts.at(-1);
    expect(last?.type === 'error' ? last.error.message : last?.type).toContain(
      `over maxAnswerChars (${DEFAULT_MAX_ANSWER_CHARS}`,
    );
    const fits = await runtime.evaluate(prompt, {
      adapter: new ScriptedAdapter([{ text: over.slice(1) }]),
    });
    expect(fits.text).toHaveLength(DEFAULT_MAX_ANSWER_CHARS);
  });

  it('refuses a limit that is not a positive integer, naming the option', () => {
    expect(() => installAffordance(new Container(), { maxAnswerChars: 0 })).toThrow(
      ConfigurationError,
    );
    expect(() => installAffordance(new Container(), { maxAnswerChars: 0 })).toThrow(
      /maxAnswerChars/,
    );
  });
});
