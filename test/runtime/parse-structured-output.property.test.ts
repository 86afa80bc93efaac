import fc from 'fast-check';
import { IsInt, IsOptional, IsString } from 'class-validator';

import { OutputParseError } from '../../src/core/errors/output-parse-error.js';
import {
  parseStructuredOutput,
  type StructuredAnswer,
} from '../../src/schema/parse-structured-output.js';
import { OrderParams } from '../schema/zoo/order-params.js';

class Verdict {
  @IsString() label!: string;
  @IsInt() score!: number;
  @IsOptional() @IsString() note?: string;
}

const outputs = [Verdict, OrderParams] as const;
const containers = ['object', 'array'] as const;

/** Assistant messages: random text, JSON, and JSON wrapped in prose or fences. */
const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.json(),
  fc
    .tuple(
      fc.string(),
      fc.constantFrom('```json\n', '```JSON ', '```\n', ''),
      fc.oneof(
        fc.json(),
        fc.constant('{"label": "x", "score": 1}'),
        fc.constant('[{"label": "x", "score": 1}]'),
      ),
      fc.constantFrom('\n```', '```', ''),
      fc.string(),
    )
    .map((parts) => parts.join('')),
);

/** Resolves to 'ok', or to the code of the OutputParseError; anything else rejects. */
async function outcome(
  output: new () => object,
  container: (typeof containers)[number],
  answer: StructuredAnswer,
): Promise<string> {
  try {
    await parseStructuredOutput(output, container, answer);
    return 'ok';
  } catch (error) {
    if (!OutputParseError.is(error)) throw error;
    expect(error.outputType).toBe(output);
    return error.code;
  }
}

describe(parseStructuredOutput, () => {
  it('should throw nothing but OutputParseError for any text', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...outputs),
        fc.constantFrom(...containers),
        fc.option(text, { nil: null }),
        async (output, container, answerText) => {
          expect(['ok', 'output_parse']).toContain(
            await outcome(output, container, { text: answerText }),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('should throw nothing but OutputParseError for any provider-decoded value', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...outputs),
        fc.constantFrom(...containers),
        fc.anything({
          withBoxedValues: true,
          withMap: true,
          withNullPrototype: true,
          withDate: true,
        }),
        async (output, container, parsed) => {
          expect(['ok', 'output_parse']).toContain(await outcome(output, container, { parsed }));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('should parse any valid verdict list, however it is presented', async () => {
    const noFence = fc.string().filter((value) => !value.includes('`'));
    const verdict = fc.record(
      // No backticks: a "```json" inside a string would be read as a fence, which comes first.
      { label: noFence, score: fc.integer(), note: noFence },
      { requiredKeys: ['label', 'score'] },
    );
    const presentation = fc.constantFrom(
      (json: string) => json,
      (json: string) => `Here:\n\`\`\`json\n${json}\n\`\`\`\nDone.`,
      (json: string) => `The answer is ${json}, as requested.`,
    );
    await fc.assert(
      fc.asyncProperty(fc.array(verdict), fc.boolean(), presentation, async (list, wrap, show) => {
        const json = JSON.stringify(wrap ? { items: list } : list);
        const parsed = await parseStructuredOutput(Verdict, 'array', { text: show(json) });
        expect(parsed).toEqual(list);
        for (const item of parsed) expect(item).toBeInstanceOf(Verdict);
      }),
      { numRuns: 200 },
    );
  });
});
