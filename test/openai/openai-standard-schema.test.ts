import { z } from 'zod';

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

const lookupSchema = z.object({
  orderId: z.string().min(3).describe('Order id, e.g. A-1'),
  includeItems: z.boolean().optional(),
});
const tagSchema = z.object({ labels: z.record(z.string(), z.string()) });

function desk(seen: unknown[]): Prompt {
  const lookup = new ToolDefinition({
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
  return new Prompt({ ns: 'test', key: 'zod-desk', sections: [section] });
}

describe('OpenAIAdapter with Standard Schema (zod 4) params', () => {
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
