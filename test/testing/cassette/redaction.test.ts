import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { AnthropicAdapter } from 'affordance/anthropic';
import { OpenAIAdapter } from 'affordance/openai';
import { Cassette, RecordingAdapter, ReplayAdapter } from 'affordance/testing';

import {
  message as anthropicMessage,
  messageEvents,
  text,
} from '../../support/anthropic-payloads.js';
import { AnthropicTestServer, TEST_ANTHROPIC_KEY } from '../../support/anthropic-test-server.js';
import { functionCall, message, responseBody } from '../../support/openai-payloads.js';
import { OpenAITestServer, type RecordedRequest } from '../../support/openai-test-server.js';
import { orderDesk } from '../../support/order-desk.js';
import { responsesStreamEvents } from '../../support/responses-stream-events.js';
import { cassetteFolder, freshRuntime } from './cassette-support.js';

/*
 * The servers below echo the credentials they received into the model's
 * answer (text and tool arguments), whole and streamed; a user message holds
 * an in-house token and an email address. None of it may reach the cassette.
 */

const OPENAI_KEY = 'sk-proj-CASSETTE-do-not-leak-0123456789abcdef';
const IN_HOUSE_TOKEN = 'acme-internal-7f3a9c21e5';
const EMAIL = 'jane.doe@example.com';
const input = `My token is ${IN_HOUSE_TOKEN}, write to ${EMAIL}.`;

/** The options both the recording and the replay get: the in-house secret and an email rule. */
const redaction = {
  secrets: [IN_HOUSE_TOKEN],
  redact: (value: string) => value.replaceAll(EMAIL, '[email]'),
};

function echoed(headers: RecordedRequest['headers']): string {
  return `You sent authorization=${String(headers.authorization)} x-api-key=${String(headers['x-api-key'])}.`;
}

/** Pieces of a secret that must not show either: every run of 8 of its characters. */
const FRAGMENT = 8;

/**
 * Every credential-like thing in `file`: a piece of a key, the token or the
 * email (a stream may split a key over several deltas), and a bearer token
 * that is not redacted.
 */
function leaks(file: string): string[] {
  const written = readFileSync(file, 'utf8');
  const found = [OPENAI_KEY, TEST_ANTHROPIC_KEY, IN_HOUSE_TOKEN, EMAIL].flatMap((secret) =>
    Array.from({ length: secret.length - FRAGMENT + 1 }, (_, at) =>
      secret.slice(at, at + FRAGMENT),
    ).filter((fragment) => written.includes(fragment)),
  );
  const bearer = /Bearer\s+(?!\[redacted key\])[\w.~+/=*-]{8,}/gi.exec(written);
  return bearer === null ? found : [...found, bearer[0]];
}

describe('cassette redaction', () => {
  it('keeps the OpenAI key and bearer header out of the cassette, whole and streamed', async () => {
    const server = await OpenAITestServer.start();
    const whole = (request: RecordedRequest) => ({
      json: responseBody([
        message(echoed(request.headers)),
        functionCall('annotate', { note: echoed(request.headers), extra: {} }, 'call_1'),
      ]),
    });
    const streamed = (request: RecordedRequest) => ({
      sse: responsesStreamEvents(responseBody([message(echoed(request.headers))])),
    });
    server.reply(whole, { json: responseBody([message(`Done, ${EMAIL}.`)]) }, streamed);
    const file = join(cassetteFolder(), 'openai.json');
    const live = new OpenAIAdapter(server.client({ apiKey: OPENAI_KEY }), { model: 'gpt-test' });
    const recording = new RecordingAdapter(live, { cassette: file, ...redaction });
    const runtime = freshRuntime();
    const answer = await runtime.evaluate(orderDesk([]), { adapter: recording, input });
    for await (const part of runtime.stream(orderDesk([]), {
      adapter: recording,
      input: 'Again.',
    })) {
      if (part.type === 'error') throw part.error;
    }
    await server.close();

    // The live answer carried the key (the recording passes answers through unchanged)...
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(answer.text).toBe(`Done, ${EMAIL}.`);
    // ...the cassette does not.
    expect(leaks(file)).toEqual([]);
    expect(readFileSync(file, 'utf8')).toContain('authorization=Bearer [redacted key]');
    // Replayed with the same redaction, the requests still match.
    const replayed = await runtime.evaluate(orderDesk([]), {
      adapter: new ReplayAdapter({ cassette: file, ...redaction }),
      input,
    });
    expect(replayed.text).toBe('Done, [email].');
  });

  it('keeps the Anthropic key out of the cassette, whole and streamed', async () => {
    const server = await AnthropicTestServer.start();
    server.reply(
      (request) => ({ json: anthropicMessage([text(echoed(request.headers))]) }),
      (request) => ({ events: messageEvents(anthropicMessage([text(echoed(request.headers))])) }),
    );
    const file = join(cassetteFolder(), 'anthropic.json');
    const live = new AnthropicAdapter(server.client(), { model: 'claude-test' });
    const recording = new RecordingAdapter(live, { cassette: file, ...redaction });
    const runtime = freshRuntime();
    await runtime.evaluate(orderDesk([]), { adapter: recording, input });
    for await (const part of runtime.stream(orderDesk([]), {
      adapter: recording,
      input: 'Again.',
    })) {
      if (part.type === 'error') throw part.error;
    }
    await server.close();

    expect(JSON.stringify(server.requests[0]?.headers)).toContain(TEST_ANTHROPIC_KEY);
    expect(leaks(file)).toEqual([]);
    // The key arrived in pieces of 8 characters: its stream's deltas were joined to redact it.
    const streamed = Cassette.read(file)?.interactions[1]?.parts ?? [];
    expect(streamed.map((part) => ('delta' in part ? part.delta : part.type))).toEqual([
      'You sent authorization=Bearer [redacted key] x-api-key=undefined.',
    ]);
  });
});
