import { IsInt, IsOptional, IsString, Min } from 'class-validator';

import { OutputParseError } from '../../src/core/errors/output-parse-error.js';
import { ToolValidationError } from '../../src/core/errors/tool-validation-error.js';
import {
  parseStructuredOutput,
  type StructuredAnswer,
} from '../../src/schema/parse-structured-output.js';
import { catchRejection } from '../support/catch-error.js';
import { Address, LineItem, OrderParams } from '../schema/zoo/order-params.js';

class Verdict {
  @IsString() label!: string;
  @IsInt() @Min(0) score!: number;
  @IsOptional() @IsString() note?: string;
}

const objectReply = 'Reply with one JSON object that matches the output schema';
const arrayReply = 'Reply with a JSON array of objects that match the output schema';

function parseObject(answer: StructuredAnswer): Promise<Verdict> {
  return parseStructuredOutput(Verdict, 'object', answer);
}

function parseArray(answer: StructuredAnswer): Promise<Verdict[]> {
  return parseStructuredOutput(Verdict, 'array', answer);
}

function objectFailure(answer: StructuredAnswer): Promise<OutputParseError> {
  return catchRejection(OutputParseError, () => parseObject(answer));
}

function arrayFailure(answer: StructuredAnswer): Promise<OutputParseError> {
  return catchRejection(OutputParseError, () => parseArray(answer));
}

describe(parseStructuredOutput, () => {
  describe('.text extraction', () => {
    it('should read a ```json fenced block with prose around it', async () => {
      const text = [
        'Here is my verdict:',
        '```json',
        '{ "label": "good", "score": 4 }',
        '```',
        'Let me know if you need { more } detail.',
      ].join('\n');

      const verdict = await parseObject({ text });

      expect(verdict).toBeInstanceOf(Verdict);
      expect(verdict).toEqual({ label: 'good', score: 4 });
    });

    it('should match the json tag in any case', async () => {
      const text = 'Result:\n```JSON\n{"label": "upper", "score": 1}\n```';

      expect(await parseObject({ text })).toEqual({ label: 'upper', score: 1 });
      expect(await parseObject({ text: text.replace('JSON', 'Json') })).toEqual({
        label: 'upper',
        score: 1,
      });
    });

    it('should use the first json block, skipping untagged blocks and later json blocks', async () => {
      const text = [
        '```',
        '{"label": "untagged", "score": 1}',
        '```',
        '```json',
        '{"label": "first", "score": 2}',
        '```',
        '```json',
        '{"label": "second", "score": 3}',
        '```',
      ].join('\n');

      expect(await parseObject({ text })).toEqual({ label: 'first', score: 2 });
    });

    it('should accept a json block written on one line', async () => {
      expect(
        await parseObject({ text: 'ok ```json {"label": "inline", "score": 0}``` bye' }),
      ).toEqual({ label: 'inline', score: 0 });
    });

    it('should fail on an invalid json block even when valid JSON follows it', async () => {
      const text = '```json\n{"label": "cut\n```\nor maybe {"label": "later", "score": 1}';

      const error = await objectFailure({ text });

      expect(error.message).toContain('Failed to decode JSON from fenced code block.');
      expect(error.message).toContain(objectReply);
      expect(error.cause).toBeInstanceOf(SyntaxError);
      expect(error.outputType).toBe(Verdict);
    });

    it('should fail on an empty json block', async () => {
      const error = await objectFailure({ text: '```json\n```' });

      expect(error.message).toContain('Failed to decode JSON from fenced code block.');
    });

    it('should not take other tags such as json5 or jsonc for json', async () => {
      const text = '```json5\n{label: "five"}\n```\n{"label": "plain", "score": 5}';

      expect(await parseObject({ text })).toEqual({ label: 'plain', score: 5 });
      expect(await parseObject({ text: text.replace('json5', 'jsonc') })).toEqual({
        label: 'plain',
        score: 5,
      });
    });

    it('should look past an unclosed json block, as a truncated reply leaves', async () => {
      const text = '```json\n{"label": "whole", "score": 7}';

      expect(await parseObject({ text })).toEqual({ label: 'whole', score: 7 });
    });

    it('should read the whole text when it is JSON, surrounding whitespace included', async () => {
      expect(await parseObject({ text: '\n\t {"label": "bare", "score": 2}  \n' })).toEqual({
        label: 'bare',
        score: 2,
      });
    });

    it('should find JSON inside prose, with braces and brackets inside its strings', async () => {
      const text =
        'Sure! {"label": "a {curly} [square] \\"quoted\\" }", "score": 3, "note": "]"} Hope that helps.';

      expect(await parseObject({ text })).toEqual({
        label: 'a {curly} [square] "quoted" }',
        score: 3,
        note: ']',
      });
    });

    it('should skip brackets in prose that do not start valid JSON', async () => {
      const text =
        'See [note 1] and {this}: {"label": [oops} then {"label": "real", "score": 9} done';

      expect(await parseObject({ text })).toEqual({ label: 'real', score: 9 });
    });

    it('should find a valid object nested inside an invalid one', async () => {
      const text = 'Draft: {"wrapper": {"label": "inner", "score": 1}, oops}';

      expect(await parseObject({ text })).toEqual({ label: 'inner', score: 1 });
    });

    it.each([
      ['prose without JSON', { text: 'I could not decide, sorry.' }],
      ['an empty text', { text: '' }],
      ['blank text', { text: ' \n\t ' }],
      ['a null text', { text: null }],
      ['no text at all', {}],
      ['unbalanced brackets', { text: '{"label": "open", "score": [1, 2' }],
    ] as const)('should report that no JSON was found in %s', async (_name, answer) => {
      const error = await objectFailure(answer);

      expect(error.message).toBe(
        `Output Verdict: No JSON object or array found in assistant message. ${objectReply}, on its own or in a \`\`\`json fenced block.`,
      );
      expect(error.code).toBe('output_parse');
      expect(error.outputType).toBe(Verdict);
    });
  });

  describe('.object container', () => {
    it('should return a validated instance of the output class', async () => {
      const verdict = await parseObject({ text: '{"label": "x", "score": 0, "note": "fine"}' });

      expect(verdict).toBeInstanceOf(Verdict);
      expect(verdict).toEqual({ label: 'x', score: 0, note: 'fine' });
    });

    it.each([
      ['an array', '[{"label": "x", "score": 1}]'],
      ['a number', '42'],
      ['a string', '"{\\"label\\": \\"x\\"}"'],
      ['null', 'null'],
    ])('should require a top-level object, not %s', async (got, text) => {
      const error = await objectFailure({ text });

      expect(error.message).toContain(`Expected top-level JSON object. Got ${got}.`);
      expect(error.message).toContain(objectReply);
    });

    it('should report every validation problem with its path, and keep them as the cause', async () => {
      const text = JSON.stringify({
        shipping: { street: '1 Main St', zip: '1234', colour: 'red' },
        items: [{ name: 'widget', quantity: 1 }, { name: 'gadget' }],
        coupon: null,
      });

      const error = await catchRejection(OutputParseError, () =>
        parseStructuredOutput(OrderParams, 'object', { text }),
      );

      expect(error.message).toMatch(
        /^Output OrderParams: The JSON does not match the output schema: /,
      );
      expect(error.message).toContain(objectReply);
      expect(error.outputType).toBe(OrderParams);
      expect(ToolValidationError.is(error.cause)).toBe(true);
      const paths = (error.cause as ToolValidationError).issues.map((issue) => issue.path);
      expect(paths).toEqual(
        expect.arrayContaining(['shipping.zip', 'shipping.colour', 'items[1].quantity', 'status']),
      );
      for (const path of paths) expect(error.message).toContain(`${path}: `);
    });

    it('should reject keys the output class does not declare', async () => {
      const error = await objectFailure({ text: '{"label": "x", "score": 1, "mood": "happy"}' });

      expect(error.message).toContain('mood: unknown field');
    });

    it('should build nested instances of the nested classes', async () => {
      const order = await parseStructuredOutput(OrderParams, 'object', {
        text: JSON.stringify({
          shipping: { street: '1 Main St', zip: '12345' },
          items: [{ name: 'widget', quantity: 2 }],
          status: 'draft',
          coupon: null,
        }),
      });

      expect(order).toBeInstanceOf(OrderParams);
      expect(order.shipping).toBeInstanceOf(Address);
      expect(order.items[0]).toBeInstanceOf(LineItem);
    });
  });

  describe('.array container', () => {
    const two = [
      { label: 'a', score: 1 },
      { label: 'b', score: 2 },
    ];

    it('should accept a bare array', async () => {
      const verdicts = await parseArray({ text: JSON.stringify(two) });

      expect(verdicts).toEqual(two);
      for (const verdict of verdicts) expect(verdict).toBeInstanceOf(Verdict);
    });

    it('should accept an array wrapped as {"items": [...]}', async () => {
      const text = `Here you go:\n\`\`\`json\n${JSON.stringify({ items: two })}\n\`\`\``;

      expect(await parseArray({ text })).toEqual(two);
    });

    it('should accept an empty array', async () => {
      expect(await parseArray({ text: '[]' })).toEqual([]);
      expect(await parseArray({ text: '{"items": []}' })).toEqual([]);
    });

    it.each([
      ['an object', '{"label": "a", "score": 1}'],
      ['a number', '7'],
      ['an object whose "items" is a string', '{"items": "a, b"}'],
      ['an object whose "items" is an object', '{"items": {"label": "a", "score": 1}}'],
    ])('should require a top-level array, not %s', async (got, text) => {
      const error = await arrayFailure({ text });

      expect(error.message).toContain(`Expected top-level JSON array. Got ${got}.`);
      expect(error.message).toContain(arrayReply);
    });

    it.each([
      [1, 'a number', '[{"label": "a", "score": 1}, 3]'],
      [0, 'null', '[null]'],
      [2, 'an array', '[{"label": "a", "score": 1}, {"label": "b", "score": 2}, []]'],
      [0, 'a string', '{"items": ["a"]}'],
    ])('should name item %i when it is %s', async (index, got, text) => {
      const error = await arrayFailure({ text });

      expect(error.message).toContain(`Array item at index ${index} is not an object. Got ${got}.`);
    });

    it('should report the problems of every item, with the index in each path', async () => {
      const text = JSON.stringify([
        { label: 'ok', score: 1 },
        { label: 'bad', score: -1 },
        { score: 1.5, 'a b': true },
      ]);

      const error = await arrayFailure({ text });

      const cause = error.cause as ToolValidationError;
      expect(ToolValidationError.is(cause)).toBe(true);
      expect(cause.paramsType).toBe(Verdict);
      const paths = cause.issues.map((issue) => issue.path);
      expect(paths).toEqual(
        expect.arrayContaining(['[1].score', '[2].score', '[2].label', '[2]["a b"]']),
      );
      expect(paths.some((path) => path.startsWith('[0]'))).toBe(false);
      for (const issue of cause.issues) {
        expect(error.message).toContain(`${issue.path}: ${issue.message}`);
      }
      expect(error.message).toContain(arrayReply);
    });

    it('should prefix nested paths of items', async () => {
      const order = {
        shipping: { street: '1 Main St', zip: '12345' },
        items: [{ name: 'widget', quantity: 0 }],
        status: 'draft',
        coupon: null,
      };

      const error = await catchRejection(OutputParseError, () =>
        parseStructuredOutput(OrderParams, 'array', { text: JSON.stringify([order, order]) }),
      );

      const paths = (error.cause as ToolValidationError).issues.map((issue) => issue.path);
      expect(paths).toEqual(['[0].items[0].quantity', '[1].items[0].quantity']);
    });
  });

  describe('.parsed', () => {
    it('should take a provider-decoded value over the text', async () => {
      const verdict = await parseObject({
        parsed: { label: 'from provider', score: 1 },
        text: '{"label": "from text", "score": 2}',
      });

      expect(verdict).toEqual({ label: 'from provider', score: 1 });
    });

    it('should validate the provider-decoded value like text', async () => {
      const error = await objectFailure({
        parsed: { label: 3, score: 1 },
        text: '{"label": "valid text", "score": 2}',
      });

      expect(error.message).toContain('label: must be a string');
    });

    it('should not read JSON out of a provider-decoded string', async () => {
      const error = await objectFailure({ parsed: '{"label": "x", "score": 1}' });

      expect(error.message).toContain('Expected top-level JSON object. Got a string.');
    });

    it('should accept a provider-decoded array or wrapper for an array output', async () => {
      const items = [{ label: 'a', score: 1 }];

      expect(await parseArray({ parsed: items })).toEqual(items);
      expect(await parseArray({ parsed: { items } })).toEqual(items);
    });

    it('should fall back on the text when the provider decoded nothing (null)', async () => {
      expect(await parseObject({ parsed: null, text: '{"label": "text", "score": 1}' })).toEqual({
        label: 'text',
        score: 1,
      });
    });

    it('should name a non-plain provider value', async () => {
      const error = await objectFailure({ parsed: new Date(0) });

      expect(error.message).toContain('Expected top-level JSON object. Got a Date object.');
    });
  });

  describe('.profile', () => {
    it('should drop null optional fields under openai-strict and keep them otherwise', async () => {
      const text = '{"label": "x", "score": 1, "note": null}';

      const strict = await parseStructuredOutput(
        Verdict,
        'object',
        { text },
        { profile: 'openai-strict' },
      );
      const standard = await parseObject({ text });

      expect(strict.note).toBeUndefined();
      expect(standard.note).toBeNull();
    });
  });
});
