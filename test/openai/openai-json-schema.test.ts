import {
  MarkdownSection,
  Prompt,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { toJsonSchema } from 'affordance/provider';

import { type OpenAIHarness, startOpenAI } from '../support/openai-harness.js';
import { functionCall, message, responseBody } from '../support/openai-payloads.js';

type Body = Record<string, unknown>;

const lookupSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    orderId: { type: 'string', minLength: 3, description: 'Order id, e.g. A-1' },
    includeItems: { type: 'boolean' },
  },
  required: ['orderId'],
  additionalProperties: false,
} as const;
const tagSchema = {
  type: 'object',
  properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } },
  required: ['labels'],
} as const;
interface Lookup {
  orderId: string;
  includeItems?: boolean;
}

function desk(seen: unknown[]): Prompt {
  const lookup = new ToolDefinition<Lookup>({
    name: 'lookup_order',
    description: 'Look an order up by id.',
    params: lookupSchema,
    handler: (params) => {
      seen.push(params);
      return ToolResult.ok(null, `Order ${params.orderId} has shipped.`);
    },
  });
  const tag = new ToolDefinition({
    name: 'tag_order',
    description: 'Tag an order.',
    params: tagSchema,
    handler: () => ToolResult.ok(null, 'Tagged.'),
  });
  const section = new MarkdownSection({
    key: 'desk',
    title: 'Desk',
    template: 'Orders.',
    tools: [lookup, tag],
  });
  return new Prompt({ ns: 'test', key: 'json-schema-desk', sections: [section] });
}

describe('OpenAIAdapter with plain JSON Schema params', () => {
  let harness: OpenAIHarness;
  afterEach(async () => {
    expect(harness.server.problems()).toEqual([]);
    await harness.server.close();
  });

  it('sends the strict projection strict, an open object non-strict, and reads strict nulls as absent', async () => {
    harness = await startOpenAI();
    harness.server.reply(
      {
        json: responseBody([functionCall('lookup_order', { orderId: 'A-1', includeItems: null })]),
      },
      { json: responseBody([message('A-1 has shipped.')]) },
    );
    const seen: unknown[] = [];
    const session = new Session();

    const response = await harness.runtime.evaluate(desk(seen), {
      input: 'Status of A-1?',
      session,
    });

    expect(response.text).toBe('A-1 has shipped.');
    const body = harness.server.requests[0]?.body;
    expect(body?.['tools']).toEqual([
      {
        type: 'function',
        name: 'lookup_order',
        description: 'Look an order up by id.',
        parameters: toJsonSchema(lookupSchema, 'openai-strict').schema,
        strict: true,
      },
      {
        type: 'function',
        name: 'tag_order',
        description: 'Tag an order.',
        parameters: toJsonSchema(tagSchema, 'standard').schema,
        strict: false,
      },
    ]);
    const parameters = (body?.['tools'] as Body[])[0]?.['parameters'];
    expect(parameters).toEqual({
      type: 'object',
      properties: {
        orderId: { type: 'string', description: 'Order id, e.g. A-1' },
        includeItems: { type: ['boolean', 'null'] },
      },
      required: ['orderId', 'includeItems'],
      additionalProperties: false,
    });
    expect(seen).toEqual([{ orderId: 'A-1' }]);
    expect(session.slice(ToolInvoked).all()[0]?.params).toEqual({ orderId: 'A-1' });
  });
});
