import { createServer } from 'node:net';

import { Deadline, PromptEvaluationError, Session } from 'affordance';
import { AiSdkAdapter, type AiSdkLanguageModel } from 'affordance/ai-sdk';

import { type AiSdkHarness, everything, startAiSdk } from '../support/ai-sdk-harness.js';
import type { WireReply } from '../support/ai-sdk-test-server.js';
import { geminiWire, TEST_AI_SDK_KEY, type Wire, wires } from '../support/ai-sdk-wires.js';
import { catchRejection } from '../support/catch-error.js';
import { collect, providerRequest } from '../support/openai-streams.js';
import { type CallLog, orderDesk } from '../support/order-desk.js';

/** A port of 127.0.0.1 nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return port;
}

describe.each(wires.map((wire) => [wire.name, wire] as const))(
  'AiSdkAdapter faults over %s',
  (_name, wire: Wire) => {
    let harness: AiSdkHarness;
    let log: CallLog;
    const ok = (text = 'Done.'): WireReply => ({ json: wire.whole({ text }) });
    const status = (code: number, headers: Record<string, string> = {}): WireReply => ({
      status: code,
      headers,
      json: wire.error(code, `Status ${code} from the test server.`),
    });
    const evaluate = (options: Record<string, unknown> = {}) =>
      harness.runtime.evaluate(orderDesk(log), {
        session: new Session(),
        input: 'A-1?',
        ...options,
      });
    const stream = () =>
      collect(harness.adapter.stream(providerRequest(harness.adapter, orderDesk(log))));

    beforeEach(() => {
      log = [];
    });
    afterEach(async () => {
      await harness.server.close();
      expect(harness.server.problems()).toEqual([]);
      expect(harness.server.pending).toBe(0);
    });

    describe('.request (retries)', () => {
      it('should wait what retry-after asks after a 429, then succeed', async () => {
        harness = await startAiSdk(wire);
        harness.server.reply(status(429, { 'retry-after': '0.003' }), ok());

        expect((await evaluate()).text).toBe('Done.');

        expect(harness.retries.map((event) => [event.attempt, event.delayMs])).toEqual([[1, 3]]);
        expect(harness.retries[0]?.reason).toMatch(/^429/);
      });

      it('should retry a 500 and a dropped connection, then succeed', async () => {
        harness = await startAiSdk(wire);
        harness.server.reply(status(500), { drop: true }, ok());

        expect((await evaluate()).text).toBe('Done.');

        expect(harness.retries.map((event) => event.reason.split(/[ :]/)[0])).toEqual([
          '500',
          'connection',
        ]);
        expect(harness.server.requests).toHaveLength(3);
      });

      it('should give up after maxRetries naming the last status', async () => {
        harness = await startAiSdk(wire, { retry: { maxRetries: 1 } });
        harness.server.reply(status(503), status(503));

        const error = await catchRejection(PromptEvaluationError, () => evaluate());

        expect(error.message).toContain('request failed after 2 attempt(s); last error 503');
        expect(error.message).toContain('no retry left (maxRetries: 1)');
      });

      it('should not retry a 400, and say what to fix', async () => {
        harness = await startAiSdk(wire);
        harness.server.reply(status(400));

        const error = await catchRejection(PromptEvaluationError, () => evaluate());

        expect(error.phase).toBe('request');
        expect(error.message).toContain(
          `${harness.adapter.name} rejected the language model request (400`,
        );
        expect(error.message).toContain('Status 400 from the test server');
        expect(error.message).toContain('Fix: correct the request');
        expect(harness.server.requests).toHaveLength(1);
      });

      it('should stop at the deadline of a request that never answers', async () => {
        harness = await startAiSdk(wire);
        harness.server.reply({ hang: true });

        const error = await catchRejection(PromptEvaluationError, () =>
          evaluate({ deadline: Deadline.in(1_000) }),
        );

        expect(error.message).toContain('Deadline expired during the');
      });

      it('should not start a retry-after wait that would pass the deadline', async () => {
        harness = await startAiSdk(wire);
        harness.server.reply(status(429, { 'retry-after': '30' }));

        const error = await catchRejection(PromptEvaluationError, () =>
          evaluate({ deadline: Deadline.in(5_000) }),
        );

        expect(error.message).toContain('would pass the deadline');
        expect(harness.server.requests).toHaveLength(1);
      });

      it('should stop when the evaluation is cancelled, and the server sees the request cut off', async () => {
        harness = await startAiSdk(wire);
        harness.server.reply({ hang: true });
        const controller = new AbortController();

        const evaluation = evaluate({ signal: controller.signal });
        const request = await harness.server.nthRequest(1);
        controller.abort(new Error('user cancelled'));

        const error = await catchRejection(PromptEvaluationError, () => evaluation);
        expect(error.message).toContain('Evaluation was cancelled during the');
        await request.cutOff;
      });

      it('should not retry a page that is not the API, and name the fix', async () => {
        harness = await startAiSdk(wire);
        harness.server.reply({ raw: '<html>Welcome</html>', rawType: 'text/html' });

        const error = await catchRejection(PromptEvaluationError, () => evaluate());

        expect(error.message).toContain('baseURL');
        expect(harness.server.requests).toHaveLength(1);
      });

      it('should never show the API key given in secrets, even when the provider echoes it', async () => {
        harness = await startAiSdk(wire, { secrets: [TEST_AI_SDK_KEY] });
        harness.server.reply({
          status: 401,
          json: wire.error(401, `invalid key ${TEST_AI_SDK_KEY} (Bearer ${TEST_AI_SDK_KEY})`),
        });

        const error = await catchRejection(PromptEvaluationError, () => evaluate());

        expect(error.message).toContain('[redacted key]');
        expect(error.message).toContain('Fix: check the API key');
        expect(everything(error)).not.toContain('do-not-leak');
      });
    });

    describe('.stream (faults)', () => {
      const answer = { text: 'Streamed answer, in several pieces of text.' };

      it('should throw, not restart, a connection dropped after parts were delivered', async () => {
        harness = await startAiSdk(wire);
        harness.server.reply({ events: wire.events(answer), dropAfter: 3 });

        const { parts, error } = await stream();

        expect(parts.length).toBeGreaterThan(0);
        expect(parts.every((part) => part.type === 'text-delta')).toBe(true);
        expect((error as Error).message).toContain(
          'broke off after part of the answer was delivered',
        );
        expect(harness.server.requests).toHaveLength(1);
      });

      it('should retry a stream cut off before its first part', async () => {
        harness = await startAiSdk(wire);
        harness.server.reply(
          { events: wire.events(answer), dropAfter: 0 },
          {
            events: wire.events(answer),
          },
        );

        const { parts, error } = await stream();

        expect(error).toBeUndefined();
        expect(parts.at(-1)?.type).toBe('turn');
        expect(harness.retries).toHaveLength(1);
      });

      it('should retry a 429 before the stream starts', async () => {
        harness = await startAiSdk(wire);
        harness.server.reply(status(429, { 'retry-after': '0.001' }), {
          events: wire.events(answer),
        });

        const { parts, error } = await stream();

        expect(error).toBeUndefined();
        const turn = parts.at(-1);
        expect(turn?.type === 'turn' ? turn.turn.text : undefined).toBe(answer.text);
        expect(harness.server.requests.map((request) => wire.isStream(request))).toEqual([
          true,
          true,
        ]);
      });
    });
  },
);

describe('AiSdkAdapter faults (provider specifics)', () => {
  let harness: AiSdkHarness | undefined;
  afterEach(async () => {
    await harness?.server.close();
    harness = undefined;
  });

  it("should wait the RetryInfo delay Gemini puts in a 429's body", async () => {
    harness = await startAiSdk(geminiWire);
    harness.server.reply(
      { status: 429, json: geminiWire.error(429, 'Quota exceeded.', '0.004s') },
      { json: geminiWire.whole({ text: 'Done.' }) },
    );

    const response = await harness.runtime.evaluate(orderDesk([]), {
      session: new Session(),
      input: 'A-1?',
    });

    expect(response.text).toBe('Done.');
    expect(harness.retries.map((event) => [event.delayMs, event.reason])).toEqual([
      [4, '429 RESOURCE_EXHAUSTED'],
    ]);
  });

  it('should redact the key of the provider package environment variable without being told it', async () => {
    const before = process.env['GOOGLE_GENERATIVE_AI_API_KEY'];
    process.env['GOOGLE_GENERATIVE_AI_API_KEY'] = TEST_AI_SDK_KEY;
    try {
      harness = await startAiSdk(geminiWire);
      harness.server.reply({
        status: 403,
        json: geminiWire.error(403, `API key ${TEST_AI_SDK_KEY} has no access.`),
      });

      const error = await catchRejection(PromptEvaluationError, () =>
        harness!.runtime.evaluate(orderDesk([]), { session: new Session(), input: 'A-1?' }),
      );

      expect(error.message).toContain('API key [redacted key] has no access');
      expect(everything(error)).not.toContain('do-not-leak');
    } finally {
      if (before === undefined) delete process.env['GOOGLE_GENERATIVE_AI_API_KEY'];
      else process.env['GOOGLE_GENERATIVE_AI_API_KEY'] = before;
    }
  });

  it('should retry a refused connection the provider package wraps, then give up naming it', async () => {
    const port = await closedPort();
    const retries: string[] = [];
    const adapter = new AiSdkAdapter({
      model: geminiWire.model(`http://127.0.0.1:${port}`),
      retry: {
        maxRetries: 2,
        initialDelayMs: 1,
        maxDelayMs: 2,
        onRetry: (e) => retries.push(e.reason),
      },
    });

    const error = await catchRejection(PromptEvaluationError, () =>
      adapter.request(providerRequest(adapter, orderDesk([]))),
    );

    expect(retries).toEqual(['connection error: ECONNREFUSED', 'connection error: ECONNREFUSED']);
    expect(error.message).toContain(
      'failed after 3 attempt(s); last error connection error: ECONNREFUSED',
    );
  });

  it('should retry a raw fetch failed that a model object lets escape', async () => {
    const port = await closedPort();
    const retries: string[] = [];
    // A hand-written model object that calls fetch itself and does not wrap its errors.
    const bare: AiSdkLanguageModel = {
      specificationVersion: 'v3',
      provider: 'bare.chat',
      modelId: 'bare-model',
      doGenerate: async () => {
        await fetch(`http://127.0.0.1:${port}/v1/chat`, { method: 'POST' });
        throw new Error('unreachable');
      },
      doStream: () => Promise.reject(new Error('not used')),
    };
    const adapter = new AiSdkAdapter({
      model: bare,
      retry: { maxRetries: 1, initialDelayMs: 1, onRetry: (e) => retries.push(e.reason) },
    });

    const error = await catchRejection(PromptEvaluationError, () =>
      adapter.request(providerRequest(adapter, orderDesk([]))),
    );

    expect(retries).toEqual(['connection error: ECONNREFUSED']);
    expect(error.message).toContain('bare.chat language model request failed after 2 attempt(s)');
  });
});
