import 'reflect-metadata';

import { inspect } from 'node:util';

import { IsString } from 'class-validator';
import { Container } from 'inversify';
import { AzureOpenAI } from 'openai';

import {
  installAffordance,
  MarkdownSection,
  Prompt,
  PromptEvaluationError,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import { OpenAIAdapter } from 'affordance/openai';
import type { RetryEvent } from 'affordance/provider';
import { TEST_STATE_SECRET } from 'affordance/testing';

import * as gpt from '../support/openai-payloads.js';
import { OpenAITestServer } from '../support/openai-test-server.js';

/** An Azure-shaped key (32 hex characters, not `sk-`): only the adapter's own redaction can hide it. */
const AZURE_KEY = '0123456789abcdef0123456789abcdef';
const API_VERSION = '2024-10-21';
const DEPLOYMENT = 'gpt-4o-prod';

class CityParams {
  @IsString() city!: string;
}

const prompt = new Prompt({
  ns: 'azure',
  key: 'weather',
  sections: [
    new MarkdownSection({
      key: 'weather',
      title: 'Weather',
      template: 'Answer with the forecast tool.',
      tools: [
        new ToolDefinition({
          name: 'forecast',
          description: 'The forecast for a city.',
          params: CityParams,
          handler: (params) => ToolResult.ok({ city: params.city, sky: 'clear' }, 'Forecast.'),
        }),
      ],
    }),
  ],
});

let server: OpenAITestServer;

beforeEach(async () => {
  server = await OpenAITestServer.start();
});

afterEach(async () => {
  expect(server.problems()).toEqual([]);
  await server.close();
});

/** The `openai` package's Azure client against the local server, as an application builds it. */
function azureClient(deployment: string | null): AzureOpenAI {
  return new AzureOpenAI({
    endpoint: server.baseURL.replace(/\/v1$/, ''),
    apiKey: AZURE_KEY,
    apiVersion: API_VERSION,
    ...(deployment === null ? {} : { deployment }),
  });
}

function runtime() {
  return installAffordance(new Container(), { stateSecret: TEST_STATE_SECRET });
}

describe('Azure OpenAI through OpenAIAdapter and the AzureOpenAI client', () => {
  it('Chat Completions: deployment URL, api-version, api-key header, and a tool call round trip', async () => {
    server.reply(
      {
        json: gpt.chatCompletion({
          toolCalls: [{ name: 'forecast', args: { city: 'Oslo' }, id: 'call_oslo' }],
        }),
      },
      { json: gpt.chatCompletion({ content: 'Clear skies in Oslo.' }) },
    );
    const adapter = new OpenAIAdapter(azureClient(DEPLOYMENT), { model: DEPLOYMENT, api: 'chat' });

    const response = await runtime().evaluate(prompt, { adapter, input: 'Weather in Oslo?' });

    expect(response.text).toBe('Clear skies in Oslo.');
    expect(response.toolCalls.map((call) => call.result.value)).toEqual([
      { city: 'Oslo', sky: 'clear' },
    ]);
    expect(server.requests.map((request) => `${request.path}${request.search}`)).toEqual([
      `/openai/deployments/${DEPLOYMENT}/chat/completions?api-version=${API_VERSION}`,
      `/openai/deployments/${DEPLOYMENT}/chat/completions?api-version=${API_VERSION}`,
    ]);
    for (const request of server.requests) {
      expect(request.headers['api-key']).toBe(AZURE_KEY);
      expect(request.headers.authorization).toBeUndefined();
    }
    const messages = server.requests[1]?.body['messages'] as Record<string, unknown>[];
    expect(messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_oslo' });
    expect(server.requests[1]?.body['model']).toBe(DEPLOYMENT);
  });

  it('Responses: /openai/responses with api-version, the deployment named as the model', async () => {
    server.reply(
      { json: gpt.responseBody([gpt.functionCall('forecast', { city: 'Rome' }, 'call_rome')]) },
      { json: gpt.responseBody([gpt.message('Sunny in Rome.')]) },
    );
    const adapter = new OpenAIAdapter(azureClient(null), { model: DEPLOYMENT });

    const response = await runtime().evaluate(prompt, { adapter, input: 'Weather in Rome?' });

    expect(response.text).toBe('Sunny in Rome.');
    expect(server.requests.map((request) => `${request.path}${request.search}`)).toEqual([
      `/openai/responses?api-version=${API_VERSION}`,
      `/openai/responses?api-version=${API_VERSION}`,
    ]);
    expect(server.requests.map((request) => request.body['model'])).toEqual([
      DEPLOYMENT,
      DEPLOYMENT,
    ]);
    expect(server.requests[0]?.headers['api-key']).toBe(AZURE_KEY);
    const input = server.requests[1]?.body['input'] as Record<string, unknown>[];
    expect(input.at(-1)).toMatchObject({ type: 'function_call_output', call_id: 'call_rome' });
  });

  it('never shows the Azure key in an error or a retry event, even when the server echoes it', async () => {
    const echo = (status: number) => () => ({
      status,
      json: { error: { code: String(status), message: `Access denied for key ${AZURE_KEY}.` } },
    });
    server.reply(echo(500), echo(401));
    const retries: RetryEvent[] = [];
    const adapter = new OpenAIAdapter(azureClient(DEPLOYMENT), {
      model: DEPLOYMENT,
      api: 'chat',
      retry: { initialDelayMs: 1, maxDelayMs: 2, onRetry: (event) => retries.push(event) },
    });

    const error = await runtime()
      .evaluate(prompt, { adapter, input: 'Weather?' })
      .catch((thrown: unknown) => thrown);

    expect(PromptEvaluationError.is(error)).toBe(true);
    expect((error as Error).message).toContain('(401');
    expect((error as Error).message).toContain('[redacted key]');
    expect(retries).toHaveLength(1);
    const shown = [
      inspect(error, { depth: 8 }),
      JSON.stringify(error),
      inspect(retries, { depth: 8 }),
    ];
    for (const text of shown) expect(text).not.toContain(AZURE_KEY);
    expect(inspect(adapter, { depth: 8 })).not.toContain(AZURE_KEY);
  });
});
