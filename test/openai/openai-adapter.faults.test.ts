import { PromptEvaluationError } from '../../src/core/errors/prompt-evaluation-error.js';
import { PromptRendered } from '../../src/runtime/events/prompt-rendered.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import { OpenAIAdapter, type OpenAIRetryEvent } from '../../src/openai/index.js';
import { Deadline } from '../../src/runtime/limits/deadline.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { Session } from '../../src/session/session.js';
import { catchRejection } from '../support/catch-error.js';
import { type OpenAIHarness, startOpenAI } from '../support/openai-harness.js';
import { functionCall, message, responseBody } from '../support/openai-payloads.js';
import type { Reply } from '../support/openai-test-server.js';
import { type CallLog, orderDesk } from '../support/order-desk.js';

const ok = (text = 'Done.'): Reply => ({ json: responseBody([message(text)]) });
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

describe(OpenAIAdapter, () => {
  let harness: OpenAIHarness;
  let log: CallLog;
  let retries: OpenAIRetryEvent[];
  let session: Session;

  const start = async (
    retry: Record<string, unknown> = {},
    runtime: { clock?: ManualClock } = {},
    extra: Record<string, unknown> = {},
  ): Promise<void> => {
    retries = [];
    harness = await startOpenAI(
      { retry: { onRetry: (event: OpenAIRetryEvent) => retries.push(event), ...retry }, ...extra },
      { runtime },
    );
  };

  beforeEach(() => {
    log = [];
    session = new Session();
  });
  afterEach(async () => {
    expect(harness.server.problems()).toEqual([]);
    expect(harness.server.pending).toBe(0);
    await harness.server.close();
  });

  const evaluate = (options: Record<string, unknown> = {}) =>
    harness.runtime.evaluate(orderDesk(log), { session, input: 'A-1?', ...options });

  describe('.request (retries)', () => {
    it('should wait what retry-after-ms asks after a 429, then succeed', async () => {
      await start();
      harness.server.reply(status(429, { 'retry-after-ms': '3' }), ok());

      expect((await evaluate()).text).toBe('Done.');

      expect(retries.map((event) => [event.attempt, event.delayMs, event.reason])).toEqual([
        [1, 3, '429'],
      ]);
      expect(harness.server.requests).toHaveLength(2);
    });

    it('should read retry-after in seconds', async () => {
      await start();
      harness.server.reply(status(429, { 'retry-after': '0.005' }), ok());

      await evaluate();

      expect(retries.map((event) => event.delayMs)).toEqual([5]);
    });

    it('should read retry-after as an HTTP date against the runtime clock', async () => {
      const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
      await start(
        {
          onRetry: (event: OpenAIRetryEvent) => {
            retries.push(event);
            setImmediate(() => {
              clock.advance(event.delayMs);
            });
          },
        },
        { clock },
      );
      harness.server.reply(status(429, { 'retry-after': 'Thu, 01 Jan 2026 12:00:03 GMT' }), ok());

      await evaluate();

      expect(retries.map((event) => event.delayMs)).toEqual([3_000]);
    });

    it('should retry a 500 with jittered exponential backoff, then succeed', async () => {
      await start({ initialDelayMs: 8, maxDelayMs: 1_000, jitter: 0.5 });
      harness.server.reply(status(500), status(502), status(500), ok());

      expect((await evaluate()).text).toBe('Done.');

      const delays = retries.map((event) => event.delayMs);
      expect(delays).toHaveLength(3);
      [8, 16, 32].forEach((base, index) => {
        expect(delays[index]).toBeGreaterThanOrEqual(base / 2);
        expect(delays[index]).toBeLessThanOrEqual(base);
      });
    });

    it('should turn the SDK retries off and give up naming the last status', async () => {
      await start({ maxRetries: 2 });
      harness.server.reply(status(500), status(502), status(503));

      const error = await catchRejection(PromptEvaluationError, evaluate);

      expect(error.phase).toBe('request');
      expect(error.message).toContain(
        'failed after 3 attempt(s); last error 503: Status 503 from the test server.',
      );
      expect(error.message).toContain('no retry left (maxRetries: 2)');
      // The client keeps the SDK's default of 2 retries; the adapter sends maxRetries: 0 per request.
      expect(
        harness.server.requests.map((request) => request.headers['x-stainless-retry-count']),
      ).toEqual(['0', '0', '0']);
      expect(error.providerPayload).toMatchObject({ status: 503, attempts: 3 });
    });

    it('should not retry a 503 the server marks with x-should-retry: false', async () => {
      await start();
      harness.server.reply(status(503, { 'x-should-retry': 'false' }));

      const error = await catchRejection(PromptEvaluationError, evaluate);

      expect(error.message).toContain('OpenAI rejected the Responses request (503)');
      expect(harness.server.requests).toHaveLength(1);
    });

    it('should not wait when the wait would pass the deadline', async () => {
      const clock = new ManualClock();
      await start({}, { clock });
      harness.server.reply(status(429, { 'retry-after': '30' }));

      const error = await catchRejection(PromptEvaluationError, () =>
        evaluate({ deadline: Deadline.in(5_000, { clock }) }),
      );

      expect(error.message).toContain('last error 429');
      expect(error.message).toContain('waiting 30000 ms would pass the deadline (5000 ms left)');
      expect(retries).toEqual([]);
      expect(clock.now()).toBe(new ManualClock().now());
    });

    it('should give up at once when retry-after exceeds maxRetryAfterMs', async () => {
      await start({ maxRetryAfterMs: 1_000 });
      harness.server.reply(status(429, { 'retry-after': '120' }));

      const error = await catchRejection(PromptEvaluationError, evaluate);

      expect(error.message).toContain('asked to wait 120000 ms, more than maxRetryAfterMs (1000)');
    });

    it('should stop waiting when the evaluation is cancelled', async () => {
      const controller = new AbortController();
      await start({
        initialDelayMs: 60_000,
        maxDelayMs: 60_000,
        onRetry: () => {
          setImmediate(() => {
            controller.abort(new Error('user pressed stop'));
          });
        },
      });
      harness.server.reply(status(500));

      const error = await catchRejection(PromptEvaluationError, () =>
        evaluate({ signal: controller.signal }),
      );

      expect(error.message).toContain(
        'Evaluation was cancelled during the OpenAI Responses request (attempt 1)',
      );
    });
  });

  describe('.request (transport faults)', () => {
    it('should abort a hung request at the deadline', async () => {
      const clock = new ManualClock();
      await start({}, { clock });
      harness.server.reply({ hang: true });

      const evaluation = evaluate({ deadline: Deadline.in(5_000, { clock }) });
      await harness.server.nthRequest(1);
      clock.advance(5_000);
      const error = await catchRejection(PromptEvaluationError, () => evaluation);

      expect(error.phase).toBe('request');
      expect(error.message).toContain(
        'Deadline expired during the OpenAI Responses request (attempt 1)',
      );
      expect(session.slice(PromptRendered).all()).toHaveLength(1);
    });

    it('should retry an attempt that hit the per-attempt timeout', async () => {
      // Long enough that a loaded machine still answers the second attempt in time (the first hangs).
      await start({}, {}, { timeoutMs: 500 });
      harness.server.reply({ hang: true }, ok());

      expect((await evaluate()).text).toBe('Done.');
      // Plain Node gets APIConnectionTimeoutError ('timeout'). Under Jest's VM the abort reason comes
      // from another realm, and the SDK reports the same timeout as a connection error.
      expect(retries.map((event) => event.reason)).toEqual([
        expect.stringMatching(/^(timeout|connection error)/),
      ]);
      expect(harness.server.requests).toHaveLength(2);
    });

    it('should retry a dropped connection', async () => {
      await start();
      harness.server.reply({ drop: true }, ok());

      expect((await evaluate()).text).toBe('Done.');
      expect(retries[0]?.reason).toMatch(/^connection error/);
    });

    it('should retry a body that is not JSON, and name it when it persists', async () => {
      await start({ maxRetries: 1 });
      harness.server.reply({ raw: '{"id":"resp_1","outp' }, ok('Parsed.'));
      expect((await evaluate()).text).toBe('Parsed.');

      harness.server.reply({ raw: '<html>gateway</html>' }, { raw: '{"id":' });
      const error = await catchRejection(PromptEvaluationError, evaluate);
      expect(error.message).toContain(
        'failed after 2 attempt(s); last error unreadable response body',
      );
    });

    it('should not retry a bad request and carry the provider message', async () => {
      await start();
      // The error body of a real 400 (pydantic-ai test_openai_responses_model_http_error.yaml).
      harness.server.reply({
        status: 400,
        json: {
          error: {
            code: 'decimal_below_min_value',
            message:
              "Invalid 'temperature': decimal below minimum value. Expected a value >= 0, but got -1 instead.",
            param: 'temperature',
            type: 'invalid_request_error',
          },
        },
      });

      const error = await catchRejection(PromptEvaluationError, evaluate);

      expect(error.message).toContain(
        "OpenAI rejected the Responses request (400 decimal_below_min_value): Invalid 'temperature': decimal below minimum value.",
      );
      expect(error.message).toContain("Fix the request field 'temperature'");
      expect(error.providerPayload).toMatchObject({
        status: 400,
        param: 'temperature',
        type: 'invalid_request_error',
      });
      expect(harness.server.requests).toHaveLength(1);
    });

    it('should not retry an authentication error', async () => {
      await start();
      harness.server.reply({
        status: 401,
        json: {
          error: {
            message: 'Incorrect API key provided: sk-test.',
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        },
      });

      const error = await catchRejection(PromptEvaluationError, evaluate);

      expect(error.message).toContain(
        '(401 invalid_api_key): Incorrect API key provided: sk-test.',
      );
      expect(error.message).toContain('Check the API key');
      expect(retries).toEqual([]);
    });

    it('should keep what the session recorded when a later request fails for good', async () => {
      await start({ maxRetries: 1 });
      harness.server.reply(
        {
          json: responseBody([
            functionCall('lookup_order', { orderId: 'A-1', includeItems: null }),
          ]),
        },
        status(500),
        status(500),
      );

      const error = await catchRejection(PromptEvaluationError, evaluate);

      expect(error.message).toContain('last error 500');
      expect(session.slice(PromptRendered).all()).toHaveLength(1);
      expect(
        session
          .slice(ToolInvoked)
          .all()
          .map((event) => [event.name, event.outcome]),
      ).toEqual([['lookup_order', 'success']]);
      expect(log).toHaveLength(1);
    });
  });
});
