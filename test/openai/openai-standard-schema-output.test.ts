/**
 * A prompt whose structured output is a Standard Schema (zod 4), evaluated
 * through the OpenAI adapter against a recorded-shape Responses server on
 * 127.0.0.1: the strict projection of the library's JSON Schema is sent, the
 * strict `null`s come back as absent, and an answer the schema rejects fails
 * with every field and its path.
 */
import { z } from 'zod';

import {
  MarkdownSection,
  OutputParseError,
  Prompt,
  PromptEvaluationError,
  type PromptInit,
} from 'affordance';
import { outputJsonSchema, toJsonSchema } from 'affordance/provider';

import { catchRejection } from '../support/catch-error.js';
import { type OpenAIHarness, startOpenAI } from '../support/openai-harness.js';
import { message, responseBody } from '../support/openai-payloads.js';

const summary = z.object({
  orderId: z.string().min(3),
  note: z.string().optional(),
  status: z.enum(['open', 'shipped']),
});

function summaryPrompt(output: PromptInit['output']): Prompt {
  return new Prompt({
    ns: 'test',
    key: 'order-summary',
    sections: [new MarkdownSection({ key: 'desk', title: 'Desk', template: 'Summarise.' })],
    output,
  });
}

describe('A Standard Schema structured output through the OpenAI adapter', () => {
  let harness: OpenAIHarness;
  afterEach(async () => {
    expect(harness.server.problems()).toEqual([]);
    await harness.server.close();
  });

  it('sends the strict projection and types the output from the schema, strict nulls absent', async () => {
    harness = await startOpenAI();
    harness.server.reply({
      json: responseBody([message('{"orderId":"A-30","note":null,"status":"open"}')]),
    });
    const prompt = new Prompt({
      ns: 'test',
      key: 'order-summary',
      sections: [new MarkdownSection({ key: 'desk', title: 'Desk', template: 'Summarise.' })],
      output: summary,
    });

    const response = await harness.runtime.evaluate(prompt);
    // Typed from the schema's output type: no cast.
    const output: z.infer<typeof summary> | z.infer<typeof summary>[] | null = response.output;

    expect(output).toEqual({ orderId: 'A-30', status: 'open' });
    expect(harness.server.requests[0]?.body['text']).toEqual({
      format: {
        type: 'json_schema',
        name: 'order-summary',
        schema: toJsonSchema(summary, 'openai-strict').schema,
        strict: true,
      },
    });
    expect(toJsonSchema(summary, 'openai-strict').schema).toEqual({
      type: 'object',
      properties: {
        orderId: { type: 'string' },
        note: { type: ['string', 'null'] },
        status: { type: 'string', enum: ['open', 'shipped'] },
      },
      required: ['orderId', 'note', 'status'],
      additionalProperties: false,
    });
    expect(toJsonSchema(summary, 'openai-strict').unexpressed).toEqual([
      expect.objectContaining({ path: 'orderId', constraint: 'minLength' }),
    ]);
  });

  it('asks for a list as an object wrapping the items', async () => {
    harness = await startOpenAI();
    harness.server.reply({
      json: responseBody([
        message(
          '{"items":[{"orderId":"A-31","note":null,"status":"open"},{"orderId":"A-32","note":"late","status":"shipped"}]}',
        ),
      ]),
    });

    const response = await harness.runtime.evaluate(summaryPrompt([summary]));

    expect(response.output).toEqual([
      { orderId: 'A-31', status: 'open' },
      { orderId: 'A-32', note: 'late', status: 'shipped' },
    ]);
    const format = (harness.server.requests[0]?.body['text'] as Record<string, unknown>)['format'];
    expect((format as Record<string, unknown>)['schema']).toEqual(
      outputJsonSchema(summary, 'array', 'openai-strict'),
    );
  });

  it("fails an answer the schema rejects with every field and its path, from the library's issues", async () => {
    harness = await startOpenAI();
    harness.server.reply({
      json: responseBody([
        message('{"items":[{"orderId":"A-33","status":"open"},{"orderId":"x","status":"lost"}]}'),
      ]),
    });

    const error = await catchRejection(PromptEvaluationError, () =>
      harness.runtime.evaluate(summaryPrompt([summary])),
    );

    expect(error.phase).toBe('response');
    const cause = error.cause as OutputParseError;
    expect(OutputParseError.is(cause)).toBe(true);
    expect(cause.message).toMatch(
      /^The JSON does not match the output schema: \[1\]\.orderId: Too small: .+; \[1\]\.status: Invalid option: .+\. Correct those fields\./,
    );
  });

  it('refuses, when the prompt is built, a schema that is not an object', () => {
    expect(() => summaryPrompt(z.string() as unknown as PromptInit['output'])).toThrow(
      /^Prompt 'test\/order-summary' output \(zod schema\): cannot be sent as a structured output: /,
    );
  });
});
