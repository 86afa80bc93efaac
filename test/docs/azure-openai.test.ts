import 'reflect-metadata';

import { IsString } from 'class-validator';
import { Container } from 'inversify';

import { installAffordance, MarkdownSection, Prompt, ToolDefinition, ToolResult } from 'affordance';
import { TEST_STATE_SECRET } from 'affordance/testing';

import {
  azureChatAdapter,
  azureResponsesAdapter,
} from '../../docs/snippets/azure-openai/azure-adapter.js';
import * as gpt from '../support/openai-payloads.js';
import { OpenAITestServer } from '../support/openai-test-server.js';

class CityParams {
  @IsString() city!: string;
}

const prompt = new Prompt({
  ns: 'docs',
  key: 'azure',
  sections: [
    new MarkdownSection({
      key: 'weather',
      title: 'Weather',
      template: 'Use the forecast tool.',
      tools: [
        new ToolDefinition({
          name: 'forecast',
          description: 'The forecast for a city.',
          params: CityParams,
          handler: (params) => ToolResult.ok({ sky: 'clear' }, `Forecast for ${params.city}.`),
        }),
      ],
    }),
  ],
});

const apiKey = 'fedcba9876543210fedcba9876543210';

describe('docs: Azure OpenAI', () => {
  let server: OpenAITestServer;
  beforeEach(async () => {
    server = await OpenAITestServer.start();
  });
  afterEach(async () => {
    expect(server.problems()).toEqual([]);
    await server.close();
  });
  const settings = () => ({ endpoint: server.baseURL.replace(/\/v1$/, ''), apiKey });
  const runtime = () => installAffordance(new Container(), { stateSecret: TEST_STATE_SECRET });

  it('the chat snippet calls the deployment URL with the api-key header and runs a tool round trip', async () => {
    server.reply(
      { json: gpt.chatCompletion({ toolCalls: [{ name: 'forecast', args: { city: 'Oslo' } }] }) },
      { json: gpt.chatCompletion({ content: 'Clear in Oslo.' }) },
    );
    const response = await runtime().evaluate(prompt, {
      adapter: azureChatAdapter(settings()),
      input: 'Oslo?',
    });
    expect(response.text).toBe('Clear in Oslo.');
    expect(server.requests.map((r) => `${r.path}${r.search}`)).toEqual([
      '/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21',
      '/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21',
    ]);
    expect(server.requests.map((r) => r.headers['api-key'])).toEqual([apiKey, apiKey]);
  });

  it('the Responses snippet calls /openai/responses with its api-version', async () => {
    server.reply({ json: gpt.responseBody([gpt.message('Clear in Rome.')]) });
    const response = await runtime().evaluate(prompt, {
      adapter: azureResponsesAdapter(settings()),
      input: 'Rome?',
    });
    expect(response.text).toBe('Clear in Rome.');
    expect(`${server.requests[0]?.path}${server.requests[0]?.search}`).toBe(
      '/openai/responses?api-version=2025-04-01-preview',
    );
    expect(server.requests[0]?.body['model']).toBe('gpt-4o-prod');
  });
});
