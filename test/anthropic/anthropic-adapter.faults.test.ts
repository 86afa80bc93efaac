import { PromptEvaluationError } from '../../src/core/errors/prompt-evaluation-error.js';
import { AnthropicAdapter } from '../../src/anthropic/index.js';
import type { RetryEvent } from '../../src/provider/index.js';
import { Deadline } from '../../src/runtime/limits/deadline.js';
import { Session } from '../../src/session/session.js';
import { catchRejection } from '../support/catch-error.js';
import { type AnthropicHarness, startAnthropic } from '../support/anthropic-harness.js';
import { message, messageBody, messageEvents, text } from '../support/anthropic-payloads.js';
import {
  type AnthropicReply,
  errorBody,
  TEST_ANTHROPIC_KEY,
} from '../support/anthropic-test-server.js';
import { collect, providerRequest } from '../support/openai-streams.js';
import { type CallLog, orderDesk } from '../support/order-desk.js';

const ok = (answer = 'Done.'): AnthropicReply => ({ json: messageBody({ text: answer }) });
const status = (
  code: number,
  type: string,
  headers: Record<string, string> = {},
): AnthropicReply => ({
  status: code,
  headers,
  json: errorBody(type, `Status ${code} from the test server.`),
});

/** Everything an error shows: message, stack, payload and cause chain, as text. */
function everything(error: unknown): string {
  const seen = new Set<unknown>();
  const parts: string[] = [];
  for (let current: unknown = error; current !== undefined && !seen.has(current);) {
    seen.add(current);
    const record = current as {
      message?: unknown;
      stack?: unknown;
      providerPayload?: unknown;
      cause?: unknown;
    };
    parts.push(
      String(record.message),
      String(record.stack),
      JSON.stringify(record.providerPayload ?? null),
    );
    parts.push(JSON.stringify(current, Object.getOwnPropertyNames(current)));
    current = record.cause;
  }
  return parts.join('\n');
}

describe(AnthropicAdapter, () => {
  let harness: AnthropicHarness;
  let retries: RetryEvent[];
  let log: CallLog;

  const start = async (options: Record<string, unknown> = {}): Promise<void> => {
    retries = [];
    harness = await startAnthropic({
      retry: { onRetry: (event: RetryEvent) => retries.push(event) },
      ...options,
    });
  };
  const evaluate = (options: Record<string, unknown> = {}) =>
    harness.runtime.evaluate(orderDesk(log), { session: new Session(), input: 'A-1?', ...options });

  beforeEach(() => {
    log = [];
  });
  afterEach(async () => {
    await harness.server.close();
    expect(harness.server.problems()).toEqual([]);
    expect(harness.server.pending).toBe(0);
  });

  describe('.request (retries)', () => {
    it('should wait what retry-after-ms asks after a 429, then succeed', async () => {
      await start();
      harness.server.reply(status(429, 'rate_limit_error', { 'retry-after-ms': '3' }), ok());

      expect((await evaluate()).text).toBe('Done.');

      expect(retries.map((event) => [event.attempt, event.delayMs, event.reason])).toEqual([
        [1, 3, '429 rate_limit_error'],
      ]);
    });

    it('should read retry-after in seconds', async () => {
      await start();
      harness.server.reply(status(429, 'rate_limit_error', { 'retry-after': '0.005' }), ok());

      await evaluate();

      expect(retries.map((event) => event.delayMs)).toEqual([5]);
    });

    it('should retry 529 overloaded, 500 and a dropped connection, then succeed', async () => {
      await start();
      harness.server.reply(
        status(529, 'overloaded_error'),
        status(500, 'api_error'),
        { drop: true },
        ok(),
      );

      expect((await evaluate()).text).toBe('Done.');

      expect(retries.map((event) => event.reason.split(':')[0])).toEqual([
        '529 overloaded_error',
        '500 api_error',
        'connection error',
      ]);
      expect(harness.server.requests).toHaveLength(4);
    });

    it('should give up after maxRetries naming the last status', async () => {
      await start({
        retry: { maxRetries: 1, onRetry: (event: RetryEvent) => retries.push(event) },
      });
      harness.server.reply(status(529, 'overloaded_error'), status(529, 'overloaded_error'));

      const error = await catchRejection(PromptEvaluationError, () => evaluate());

      expect(error.message).toContain(
        'Anthropic Messages request failed after 2 attempt(s); last error 529 overloaded_error: Status 529 from the test server',
      );
    });

    it.each([
      [400, 'invalid_request_error', 'correct the request'],
      [401, 'authentication_error', 'ANTHROPIC_API_KEY'],
      [403, 'permission_error', 'lacks access'],
      [404, 'not_found_error', 'AnthropicAdapterOptions.model'],
      [413, 'request_too_large', 'too large'],
    ])('should not retry a %i and say what to fix', async (code, type, fix) => {
      await start();
      harness.server.reply(status(code, type, { 'x-should-retry': 'true' }));

      const error = await catchRejection(PromptEvaluationError, () => evaluate());

      expect(error.phase).toBe('request');
      expect(error.message).toContain(`Anthropic rejected the Messages request (${code} ${type})`);
      expect(error.message).toContain(fix);
      expect(harness.server.requests).toHaveLength(1);
    });

    it('should stop at the deadline of a request that never answers', async () => {
      await start();
      harness.server.reply({ hang: true });

      const error = await catchRejection(PromptEvaluationError, () =>
        evaluate({ deadline: Deadline.in(1_000) }),
      );

      expect(error.message).toContain(
        'Deadline expired during the Anthropic Messages request (attempt 1)',
      );
    });

    it('should stop when the evaluation is cancelled, and the server sees the request cut off', async () => {
      await start();
      harness.server.reply({ hang: true });
      const controller = new AbortController();

      const evaluation = evaluate({ signal: controller.signal });
      const request = await harness.server.nthRequest(1);
      controller.abort(new Error('user cancelled'));

      const error = await catchRejection(PromptEvaluationError, () => evaluation);
      expect(error.message).toContain(
        'Evaluation was cancelled during the Anthropic Messages request',
      );
      await request.cutOff;
    });

    it('should fail at once, naming the URL, when the base URL serves a web page', async () => {
      await start();
      harness.server.reply({ raw: '<html>Welcome</html>', rawType: 'text/html' });

      const error = await catchRejection(PromptEvaluationError, () => evaluate());

      expect(error.message).toContain('answered HTTP 200 with text/html, not JSON');
      expect(error.message).toContain('ANTHROPIC_BASE_URL');
      expect(harness.server.requests).toHaveLength(1);
    });

    it('should never show the API key, even when the provider echoes it', async () => {
      await start();
      harness.server.reply({
        status: 401,
        json: errorBody(
          'authentication_error',
          `invalid x-api-key ${TEST_ANTHROPIC_KEY} (Bearer ${TEST_ANTHROPIC_KEY})`,
        ),
      });

      const error = await catchRejection(PromptEvaluationError, () => evaluate());

      expect(error.message).toContain('[redacted key]');
      expect(everything(error)).not.toContain('TESTKEY');
    });
  });

  describe('.stream (faults)', () => {
    const whole = message([text('Streamed answer, in several pieces.')]);

    it('should retry an overloaded error event that comes before the first part', async () => {
      await start();
      const overloaded = {
        type: 'error',
        error: { type: 'overloaded_error', message: 'Overloaded' },
      };
      harness.server.reply(
        { events: [messageEvents(whole)[0]!, overloaded] },
        { events: messageEvents(whole) },
      );

      const { parts, error } = await collect(
        harness.adapter.stream(providerRequest(harness.adapter, orderDesk(log))),
      );

      expect(error).toBeUndefined();
      expect(parts.at(-1)?.type).toBe('turn');
      expect(retries.map((event) => event.reason)).toEqual(['API error overloaded_error']);
    });

    it('should throw, not restart, an error event after parts were delivered', async () => {
      await start();
      const events = messageEvents(whole);
      const cut = events.findIndex((event) => event['type'] === 'content_block_delta') + 1;
      harness.server.reply({
        events: [
          ...events.slice(0, cut),
          { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        ],
      });

      const { parts, error } = await collect(
        harness.adapter.stream(providerRequest(harness.adapter, orderDesk(log))),
      );

      expect(parts.map((part) => part.type)).toEqual(['text-delta']);
      expect(error).toBeInstanceOf(PromptEvaluationError);
      expect((error as Error).message).toContain(
        'The Anthropic Messages stream broke off after part of the answer was delivered (API error overloaded_error: Overloaded)',
      );
      expect(harness.server.requests).toHaveLength(1);
    });

    it('should throw, not restart, a connection dropped after parts were delivered', async () => {
      await start();
      const events = messageEvents(whole);
      const cut = events.findIndex((event) => event['type'] === 'content_block_delta') + 2;
      harness.server.reply({ events, dropAfter: cut });

      const { parts, error } = await collect(
        harness.adapter.stream(providerRequest(harness.adapter, orderDesk(log))),
      );

      expect(parts.length).toBeGreaterThan(0);
      expect(parts.every((part) => part.type === 'text-delta')).toBe(true);
      expect((error as Error).message).toContain(
        'broke off after part of the answer was delivered',
      );
      expect(harness.server.requests).toHaveLength(1);
    });

    it('should retry a 529 before the stream starts', async () => {
      await start();
      harness.server.reply(status(529, 'overloaded_error'), { events: messageEvents(whole) });

      const { error } = await collect(
        harness.adapter.stream(providerRequest(harness.adapter, orderDesk(log))),
      );

      expect(error).toBeUndefined();
      expect(harness.server.requests.map((request) => request.body['stream'])).toEqual([
        true,
        true,
      ]);
    });
  });
});
