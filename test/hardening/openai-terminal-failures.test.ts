import { PromptEvaluationError } from '../../src/core/errors/prompt-evaluation-error.js';
import type { OpenAIRetryEvent } from '../../src/openai/index.js';
import { Session } from '../../src/session/session.js';
import { catchRejection } from '../support/catch-error.js';
import { type OpenAIHarness, startOpenAI } from '../support/openai-harness.js';
import { message, responseBody } from '../support/openai-payloads.js';
import type { Reply } from '../support/openai-test-server.js';
import { type CallLog, orderDesk } from '../support/order-desk.js';

/** The body OpenAI sends with a 429 when the account has no quota left. */
const quotaExhausted: Reply = {
  status: 429,
  json: {
    error: {
      message:
        'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
      type: 'insufficient_quota',
      param: null,
      code: 'insufficient_quota',
    },
  },
};

/** What a web server answers at a wrong baseURL: a 200 with an HTML page. */
const htmlPage: Reply = {
  headers: { 'content-type': 'text/html; charset=utf-8' },
  raw: '<!DOCTYPE html>\n<html><head><title>Acme dashboard</title></head><body>Sign in</body></html>',
};

describe('An OpenAI request that cannot succeed fails at once, saying why', () => {
  let harness: OpenAIHarness;
  let retries: OpenAIRetryEvent[];

  const start = async (api: 'responses' | 'chat' = 'responses'): Promise<void> => {
    retries = [];
    harness = await startOpenAI({
      api,
      retry: {
        maxRetries: 3,
        onRetry: (event) => {
          retries.push(event);
        },
      },
    });
  };
  const evaluate = () =>
    harness.runtime.evaluate(orderDesk([] as CallLog), { session: new Session(), input: 'A-1?' });

  afterEach(async () => {
    expect(harness.server.problems()).toEqual([]);
    await harness.server.close();
  });

  describe('a 429 insufficient_quota', () => {
    it.each(['responses', 'chat'] as const)(
      'is sent once on %s, never retried, and carries the provider message',
      async (api) => {
        await start(api);
        harness.server.reply(quotaExhausted);

        const error = await catchRejection(PromptEvaluationError, evaluate);

        expect(harness.server.requests).toHaveLength(1);
        expect(retries).toEqual([]);
        expect(error.phase).toBe('request');
        expect(error.message).toContain(
          '(429 insufficient_quota): You exceeded your current quota',
        );
        expect(error.message).toMatch(/quota.*billing/s);
        expect(error.providerPayload).toMatchObject({ status: 429, code: 'insufficient_quota' });
      },
    );

    it('still retries a plain 429 rate limit', async () => {
      await start();
      harness.server.reply(
        {
          status: 429,
          json: { error: { message: 'Slow down.', type: 'requests', param: null, code: null } },
        },
        { json: responseBody([message('Done.')]) },
      );

      await evaluate();

      expect(harness.server.requests).toHaveLength(2);
    });
  });

  describe('a 200 answer that is not JSON (a wrong baseURL)', () => {
    it.each([
      ['responses', '/v1/responses'],
      ['chat', '/v1/chat/completions'],
    ] as const)(
      'on %s names the endpoint, the base URL and the fix after one request',
      async (api, path) => {
        await start(api);
        harness.server.reply(htmlPage);

        const error = await catchRejection(PromptEvaluationError, evaluate);

        expect(harness.server.requests).toHaveLength(1);
        expect(retries).toEqual([]);
        expect(error.phase).toBe('response');
        const url = harness.server.baseURL.replace(/\/v1$/, path);
        expect(error.message).toContain(`POST ${url}`);
        expect(error.message).toContain('text/html');
        expect(error.message).toContain('not JSON');
        expect(error.message).toContain('<!DOCTYPE html>');
        expect(error.message).toContain(`baseURL (${harness.server.baseURL})`);
        expect(error.message).toContain('OPENAI_BASE_URL');
        expect(error.providerPayload).toMatchObject({ url, status: 200 });
      },
    );

    it('keeps the quoted page short', async () => {
      await start();
      harness.server.reply({ ...htmlPage, raw: `<html>${'x'.repeat(1_000_000)}</html>` });

      const error = await catchRejection(PromptEvaluationError, evaluate);

      expect(error.message.length).toBeLessThan(1_000);
      expect(JSON.stringify(error.providerPayload).length).toBeLessThan(1_000);
    });
  });
});
