import { inspect } from 'node:util';

import { PromptEvaluationError } from '../../src/core/errors/prompt-evaluation-error.js';
import { OpenAIAdapter, type OpenAIRetryEvent } from '../../src/openai/index.js';
import { catchRejection } from '../support/catch-error.js';
import { type OpenAIHarness, startOpenAI } from '../support/openai-harness.js';
import { message, responseBody } from '../support/openai-payloads.js';
import type { Reply } from '../support/openai-test-server.js';
import { collect, providerRequest, textOf, turnOf } from '../support/openai-streams.js';
import { orderDesk } from '../support/order-desk.js';

type Json = Record<string, unknown>;

const apiKey = 'sk-stream-secret-0123456789abcdef';

/** The events of a Responses stream that says `text` in three deltas, as the API sends them. */
function textStream(text: string, extra: Json = {}): string[] {
  const item = message(text);
  const response = responseBody([item], extra);
  const itemId = item['id'] as string;
  const third = Math.ceil(text.length / 3);
  const pieces = [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)];
  const events: Json[] = [
    {
      type: 'response.created',
      response: { ...response, status: 'in_progress', output: [], usage: null },
    },
    {
      type: 'response.in_progress',
      response: { ...response, status: 'in_progress', output: [], usage: null },
    },
    ...pieces.map((delta) => ({
      type: 'response.output_text.delta',
      item_id: itemId,
      output_index: 0,
      content_index: 0,
      delta,
    })),
    { type: 'response.completed', response },
  ];
  return events.map((event) => JSON.stringify(event));
}

const status = (code: number, headers: Record<string, string> = {}): Reply => ({
  status: code,
  headers,
  json: {
    error: {
      message: `Status ${code} from the test server.`,
      type: 'server_error',
      param: null,
      code: null,
    },
  },
});

/** Every place an error could show a key: message, payload, cause chain, stack. */
const everything = (error: unknown): string => inspect(error, { depth: 12, showHidden: true });

describe(OpenAIAdapter, () => {
  let harness: OpenAIHarness;
  let retries: OpenAIRetryEvent[];

  const start = async (options: Json = {}): Promise<void> => {
    retries = [];
    harness = await startOpenAI(
      { retry: { onRetry: (event: OpenAIRetryEvent) => retries.push(event) }, ...options },
      { client: { apiKey } },
    );
  };
  const request = (signal?: AbortSignal) =>
    providerRequest(harness.adapter, orderDesk([]), signal === undefined ? {} : { signal });

  afterEach(async () => {
    expect(harness.server.problems()).toEqual([]);
    expect(harness.server.pending).toBe(0);
    await harness.server.close();
  });

  describe('.stream (retries before the first part)', () => {
    it('should retry a 429 and a 500 that come before any event, then stream', async () => {
      await start();
      harness.server.reply(status(429, { 'retry-after-ms': '2' }), status(500), {
        sse: textStream('All good.'),
      });

      const { parts, error } = await collect(harness.adapter.stream(request()));

      expect(error).toBeUndefined();
      expect(textOf(parts)).toBe('All good.');
      expect(turnOf(parts).text).toBe('All good.');
      expect(retries.map((event) => [event.attempt, event.reason])).toEqual([
        [1, '429'],
        [2, '500'],
      ]);
      expect(retries[0]?.delayMs).toBe(2);
      expect(harness.server.requests.map((seen) => seen.body['stream'])).toEqual([
        true,
        true,
        true,
      ]);
    });

    it('should retry a Chat Completions stream after a 503', async () => {
      await start({ api: 'chat' });
      const chunk = (delta: Json, finish: string | null) =>
        JSON.stringify({
          id: 'chatcmpl-retry',
          object: 'chat.completion.chunk',
          created: 1_767_225_600,
          model: 'gpt-test',
          choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        });
      harness.server.reply(status(503), {
        sse: [chunk({ content: 'Back.' }, null), chunk({}, 'stop')],
      });

      const { parts } = await collect(harness.adapter.stream(request()));

      expect(textOf(parts)).toBe('Back.');
      expect(turnOf(parts).finishReason).toBe('stop');
      expect(retries.map((event) => event.reason)).toEqual(['503']);
    });

    it('should retry a connection dropped before any part, and a transient failed response', async () => {
      await start();
      const failed = responseBody([], {
        status: 'failed',
        error: { code: 'server_error', message: 'Try again.' },
      });
      harness.server.reply(
        { sse: textStream('Never said.'), dropAfter: 2 },
        { sse: [JSON.stringify({ type: 'response.failed', response: failed })] },
        { sse: textStream('Third time.') },
      );

      const { parts, error } = await collect(harness.adapter.stream(request()));

      expect(error).toBeUndefined();
      expect(textOf(parts)).toBe('Third time.');
      expect(retries.map((event) => event.reason)).toEqual([
        expect.stringContaining('terminated') as unknown,
        'failed response (server_error)',
      ]);
      expect(harness.server.requests).toHaveLength(3);
    });
  });

  describe('.stream (failures after the first part)', () => {
    it('should throw a connection dropped mid-stream after the parts it delivered, with no second request', async () => {
      await start();
      harness.server.reply({ sse: textStream('Hello there, friend.'), dropAfter: 4 });

      const { parts, error } = await collect(harness.adapter.stream(request()));

      expect(parts).toEqual([
        { type: 'text-delta', delta: 'Hello t' },
        { type: 'text-delta', delta: 'here, f' },
      ]);
      const thrown = error as PromptEvaluationError;
      expect(PromptEvaluationError.is(thrown)).toBe(true);
      expect(thrown.phase).toBe('request');
      expect(thrown.message).toContain(
        'The OpenAI Responses stream broke off after part of the answer was delivered',
      );
      expect(thrown.message).toContain('It was not retried');
      expect(retries).toEqual([]);
      expect(harness.server.requests).toHaveLength(1);
    });

    it('should throw a transient failed response that comes after text, without retrying', async () => {
      await start();
      const failed = responseBody([], {
        status: 'failed',
        error: { code: 'server_error', message: 'Oops.' },
      });
      const events = textStream('Some text here.');
      harness.server.reply({
        sse: [...events.slice(0, 3), JSON.stringify({ type: 'response.failed', response: failed })],
      });

      const { parts, error } = await collect(harness.adapter.stream(request()));

      expect(parts).toEqual([{ type: 'text-delta', delta: 'Some ' }]);
      expect((error as PromptEvaluationError).phase).toBe('response');
      expect((error as PromptEvaluationError).message).toContain(
        'OpenAI could not complete the response (failed, server_error): Oops.',
      );
      expect(harness.server.requests).toHaveLength(1);
    });
  });

  describe('.stream (ending early)', () => {
    it('should end promptly with the cancellation error when request.signal aborts mid-stream', async () => {
      await start();
      harness.server.reply({ sse: textStream('Wait for it.'), holdAfter: 3 });
      const controller = new AbortController();
      const stream = harness.adapter.stream(request(controller.signal));

      const first = await stream.next();
      const pending = stream.next();
      controller.abort();
      const error = await catchRejection(PromptEvaluationError, () => pending);

      expect(first.value).toEqual({ type: 'text-delta', delta: 'Wait' });
      expect(error.phase).toBe('request');
      expect(error.message).toContain(
        'Evaluation was cancelled during the OpenAI Responses request (attempt 1).',
      );
      await harness.server.requests[0]!.cutOff;
      expect(await stream.next()).toEqual({ done: true, value: undefined });
    });

    it('should end with the cancellation error, without retrying, when the signal aborts before any part', async () => {
      await start();
      harness.server.reply({ sse: textStream('Never.'), holdAfter: 1 });
      const controller = new AbortController();
      const stream = harness.adapter.stream(request(controller.signal));

      const pending = stream.next();
      await harness.server.nthRequest(1);
      controller.abort();
      const error = await catchRejection(PromptEvaluationError, () => pending);

      expect(error.message).toContain(
        'Evaluation was cancelled during the OpenAI Responses request',
      );
      await harness.server.requests[0]!.cutOff;
      expect(retries).toEqual([]);
    });

    it('should abort the HTTP request when the consumer returns early', async () => {
      await start();
      harness.server.reply({ sse: textStream('A long answer.'), holdAfter: 3 });
      const stream = harness.adapter.stream(request());

      const first = await stream.next();
      const returned = await stream.return(undefined);

      expect(first.value).toEqual({ type: 'text-delta', delta: 'A lon' });
      expect(returned).toEqual({ done: true, value: undefined });
      // The server sees the connection close before its reply finished.
      await harness.server.requests[0]!.cutOff;
      expect(harness.server.requests).toHaveLength(1);
    });
  });

  describe('.stream (API keys)', () => {
    it('should show no API key in a rejected streamed request', async () => {
      await start();
      harness.server.reply({
        status: 401,
        json: {
          error: {
            message: `Incorrect API key provided: ${apiKey}.`,
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        },
      });

      const { error } = await collect(harness.adapter.stream(request()));

      expect((error as PromptEvaluationError).message).toContain(
        'Incorrect API key provided: [redacted key]',
      );
      expect(everything(error)).not.toContain(apiKey);
      expect(harness.server.requests[0]?.headers.authorization).toBe(`Bearer ${apiKey}`);
    });

    it('should show no API key in an error event, before or after the first part', async () => {
      await start();
      const event = JSON.stringify({
        type: 'error',
        error: {
          type: 'invalid_request_error',
          code: 'invalid_api_key',
          message: `Bad key ${apiKey}.`,
          param: null,
        },
      });
      const events = textStream('Some text.');
      harness.server.reply({ sse: [events[0]!, event] }, { sse: [...events.slice(0, 3), event] });

      const before = await collect(harness.adapter.stream(request()));
      const after = await collect(harness.adapter.stream(request()));

      expect(before.parts).toEqual([]);
      expect(after.parts).toEqual([{ type: 'text-delta', delta: 'Some' }]);
      for (const { error } of [before, after]) {
        expect((error as PromptEvaluationError).message).toContain(
          'OpenAI could not complete the response (failed, invalid_api_key): Bad key [redacted key].',
        );
        expect(everything(error)).not.toContain(apiKey);
      }
    });
  });
});
