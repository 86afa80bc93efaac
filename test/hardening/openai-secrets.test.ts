import { inspect } from 'node:util';

import { IsString } from 'class-validator';
import { Container } from 'inversify';
import OpenAI, { APIError } from 'openai';

import { installAffordance } from '../../src/runtime/scope/install-affordance.js';
import { PromptEvaluationError } from '../../src/core/errors/prompt-evaluation-error.js';
import {
  OpenAIAdapter,
  OpenAIAdapterOptions,
  type OpenAIRetryEvent,
} from '../../src/openai/index.js';
import { MarkdownSection } from '../../src/prompt/markdown-section.js';
import { Prompt } from '../../src/prompt/prompt.js';
import { ProviderAdapter } from '../../src/provider/provider-adapter.js';
import { Session } from '../../src/session/session.js';
import type { ToolContext } from '../../src/tools/tool-context.js';
import { ToolDefinition } from '../../src/tools/tool-definition.js';
import { ToolResult } from '../../src/tools/tool-result.js';
import { catchRejection } from '../support/catch-error.js';
import { startOpenAI } from '../support/openai-harness.js';
import { functionCall, message, responseBody } from '../support/openai-payloads.js';
import { OpenAITestServer, type Reply } from '../support/openai-test-server.js';

const key = 'sk-test-SECRET-1234567890abcdef';

/** Every way a value is commonly printed or logged, as one text. */
function printed(value: unknown): string {
  const json = (() => {
    try {
      return JSON.stringify(value);
    } catch (error) {
      // A cycle: the TypeError's message names the path, and must not show the key either.
      return String(error);
    }
  })();
  return [
    inspect(value),
    inspect(value, { depth: Infinity, showHidden: true, getters: true }),
    json,
    String(value),
  ].join('\n');
}

/** What OpenAI answers to a wrong key: a 401 whose message echoes it. */
const unauthorized = (echo: string, headers: Record<string, string> = {}): Reply => ({
  status: 401,
  headers,
  json: {
    error: {
      message: `Incorrect API key provided: ${echo}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      type: 'invalid_request_error',
      param: key,
      code: 'invalid_api_key',
    },
  },
});

class PeekParams {
  @IsString() note!: string;
}

/** A prompt whose one tool keeps the context it is handed. */
function peekingPrompt(seen: ToolContext[]): Prompt {
  return new Prompt({
    ns: 'test/secrets',
    key: 'peek',
    sections: [
      new MarkdownSection({
        key: 'peek',
        title: 'Peek',
        template: 'Call peek.',
        tools: [
          new ToolDefinition({
            name: 'peek',
            description: 'Keeps its context.',
            params: PeekParams,
            handler: (_params: PeekParams, context: ToolContext) => {
              seen.push(context);
              return ToolResult.ok(null, 'Peeked.');
            },
          }),
        ],
      }),
    ],
  });
}

const toolThenAnswer = (): Reply[] => [
  { json: responseBody([functionCall('peek', { note: 'n' })]) },
  { json: responseBody([message('Done.')]) },
];

describe('An API key never shows in what the OpenAI adapter exposes or throws', () => {
  let server: OpenAITestServer | undefined;
  afterEach(async () => {
    expect(server?.problems()).toEqual([]);
    await server?.close();
    server = undefined;
  });

  const start = async (retry: Record<string, unknown> = { maxRetries: 0 }) => {
    const harness = await startOpenAI({ retry }, { client: { apiKey: key } });
    server = harness.server;
    return harness;
  };

  describe('the adapter and a tool context', () => {
    it('print without the key when the container binds the client', async () => {
      const { adapter, runtime } = await start();
      const seen: ToolContext[] = [];
      server!.reply(...toolThenAnswer());

      await runtime.evaluate(peekingPrompt(seen), { session: new Session() });

      expect(seen).toHaveLength(1);
      expect(seen[0]!.adapter).toBe(adapter);
      expect(printed(adapter)).not.toContain(key);
      expect(printed(seen[0])).not.toContain(key);
      expect(Object.keys(adapter)).not.toContain('client');
      expect(inspect(adapter)).toBe(
        "OpenAIAdapter { name: 'openai', api: 'responses', model: 'gpt-test' }",
      );
      expect(JSON.parse(JSON.stringify(adapter))).toEqual({
        name: 'openai',
        api: 'responses',
        model: 'gpt-test',
      });
      // The client stays reachable for those who ask for it by name.
      expect(adapter.client).toBeInstanceOf(OpenAI);
      expect(adapter.client.apiKey).toBe(key);
    });

    it('print without the key when the adapter builds its client from options.client', async () => {
      server = await OpenAITestServer.start();
      const container = new Container();
      const runtime = installAffordance(container);
      container.bind(OpenAIAdapterOptions).toConstantValue({
        model: 'gpt-test',
        client: { apiKey: key, baseURL: server.baseURL },
      });
      container.bind(ProviderAdapter).to(OpenAIAdapter);
      const adapter = container.get(ProviderAdapter);
      const seen: ToolContext[] = [];
      server.reply(...toolThenAnswer());

      await runtime.evaluate(peekingPrompt(seen), { adapter, session: new Session() });

      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${key}`);
      expect(printed(adapter)).not.toContain(key);
      expect(printed(seen[0])).not.toContain(key);
    });
  });

  describe('a 401 that echoes the key', () => {
    it('gives an error whose message, payload and cause chain are redacted', async () => {
      const { runtime } = await start();
      server!.reply(unauthorized(key, { 'x-echo-authorization': `Bearer ${key}` }));

      const error = await catchRejection(PromptEvaluationError, () =>
        runtime.evaluate(peekingPrompt([]), { session: new Session() }),
      );

      expect(error.message).toContain(
        'OpenAI rejected the Responses request (401 invalid_api_key): Incorrect API key provided: [redacted key].',
      );
      expect(error.message).toContain('Check the API key');
      expect(printed(error)).not.toContain(key);
      expect(printed(error.providerPayload)).not.toContain(key);
      expect(String(error.stack)).not.toContain(key);
      // The cause keeps its class and fields, scrubbed.
      expect(error.cause).toBeInstanceOf(APIError);
      const cause = error.cause as APIError;
      expect(cause.status).toBe(401);
      expect(cause.message).toContain('[redacted key]');
      expect(printed(cause)).not.toContain(key);
      expect(cause.headers?.get('x-echo-authorization')).toBe('Bearer [redacted key]');
    });

    it('redacts a partly masked sk- key as OpenAI prints it', async () => {
      const { runtime } = await start();
      server!.reply(unauthorized('sk-test-***********************cdef'));

      const error = await catchRejection(PromptEvaluationError, () =>
        runtime.evaluate(peekingPrompt([]), { session: new Session() }),
      );

      expect(error.message).toContain('Incorrect API key provided: [redacted key].');
      expect(printed(error)).not.toMatch(/sk-test-\*/);
    });
  });

  it('reports retries with a redacted error', async () => {
    const events: OpenAIRetryEvent[] = [];
    const { runtime } = await start({
      maxRetries: 1,
      onRetry: (event: OpenAIRetryEvent) => events.push(event),
    });
    server!.reply(
      {
        status: 500,
        json: {
          error: {
            message: `upstream saw key ${key}`,
            type: 'server_error',
            param: null,
            code: null,
          },
        },
      },
      { json: responseBody([message('Done.')]) },
    );

    await runtime.evaluate(peekingPrompt([]), { session: new Session() });

    expect(events).toHaveLength(1);
    expect(printed(events[0]!.error)).not.toContain(key);
  });

  it('redacts a failed response that quotes the key in its payload', async () => {
    const { runtime } = await start();
    server!.reply({
      json: responseBody([], {
        status: 'failed',
        error: { code: 'invalid_prompt', message: `The prompt contains ${key}.` },
      }),
    });

    const error = await catchRejection(PromptEvaluationError, () =>
      runtime.evaluate(peekingPrompt([]), { session: new Session() }),
    );

    expect(error.message).toContain('The prompt contains [redacted key]');
    expect(printed(error)).not.toContain(key);
  });
});
