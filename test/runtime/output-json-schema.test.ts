import { Ajv2020 } from 'ajv/dist/2020.js';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  ValidateNested,
  isDateString,
  isEmail,
  isURL,
  isUUID,
} from 'class-validator';
import { toStrictJsonSchema } from 'openai/lib/transform';

import type { SchemaProfile } from '../../src/schema/params-json-schema.js';
import { outputJsonSchema } from '../../src/schema/output-json-schema.js';
import { parseStructuredOutput } from '../../src/schema/parse-structured-output.js';
import { toJsonSchema } from '../../src/schema/to-json-schema.js';
import { toStrictPayload } from '../support/strict-payload.js';
import { OrderParams } from '../schema/zoo/order-params.js';
import { TreeParams } from '../schema/zoo/tree-params.js';
import { zoo } from '../schema/zoo/index.js';

type Json = Parameters<typeof toStrictPayload>[1];
const profiles = ['standard', 'openai-strict'] as const satisfies readonly SchemaProfile[];

class Verdict {
  @IsString() label!: string;
  @IsInt() score!: number;
}

/** A nested class that shares its name with the self-referencing class below. */
const InnerNode = (() => {
  class Node {
    @IsString() text!: string;
  }
  return Node;
})();

class Node {
  @ValidateNested() @Type(() => InnerNode) inner!: InstanceType<typeof InnerNode>;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => Node) children?: Node[];
}

/** ajv for draft 2020-12, with formats checked the way class-validator checks them. */
function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  ajv.addFormat('email', (value: string) => isEmail(value));
  ajv.addFormat('uri', (value: string) => isURL(value));
  ajv.addFormat('uuid', (value: string) => isUUID(value));
  ajv.addFormat('date-time', (value: string) => isDateString(value));
  return ajv;
}

/** Every `$ref` in a JSON document. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, entry]) =>
    key === '$ref' && typeof entry === 'string' ? [entry] : refsIn(entry),
  );
}

describe(outputJsonSchema, () => {
  describe('.object container', () => {
    it.each(profiles)('should be the class schema for the %s profile', (profile) => {
      expect(outputJsonSchema(Verdict, 'object', profile)).toBe(
        toJsonSchema(Verdict, profile).schema,
      );
    });
  });

  describe('.array container', () => {
    it('should wrap the class schema in an object with an items array', () => {
      expect(outputJsonSchema(Verdict, 'array')).toEqual({
        type: 'object',
        properties: {
          items: {
            type: 'array',
            items: {
              type: 'object',
              properties: { label: { type: 'string' }, score: { type: 'integer' } },
              required: ['label', 'score'],
              additionalProperties: false,
            },
          },
        },
        required: ['items'],
        additionalProperties: false,
      });
    });

    it('should default to the standard profile, and be cached and frozen', () => {
      const schema = outputJsonSchema(OrderParams, 'array');

      expect(schema).toBe(outputJsonSchema(OrderParams, 'array', 'standard'));
      expect(schema).not.toBe(outputJsonSchema(OrderParams, 'array', 'openai-strict'));
      expect(Object.isFrozen(schema)).toBe(true);
      expect(Object.isFrozen(schema['properties'])).toBe(true);
    });

    it('should move nested definitions to the top of the wrapper', () => {
      const classSchema = toJsonSchema(OrderParams).schema;
      const schema = outputJsonSchema(OrderParams, 'array');

      const items = (schema['properties'] as Record<string, Record<string, unknown>>)['items']!;
      const item = items['items'] as Record<string, unknown>;
      expect(item['$defs']).toBeUndefined();
      expect(schema['$defs']).toEqual(classSchema['$defs']);
      expect(item['properties']).toEqual(classSchema['properties']);
    });

    it('should make a self-referencing class a definition, so "#" never means the wrapper', () => {
      const schema = outputJsonSchema(TreeParams, 'array');

      expect(refsIn(schema)).not.toContain('#');
      const items = (schema['properties'] as Record<string, Record<string, unknown>>)['items']!;
      expect(items['items']).toEqual({ $ref: '#/$defs/TreeParams' });
      const definitions = schema['$defs'] as Record<string, Record<string, unknown>>;
      expect(Object.keys(definitions).sort()).toEqual(['Category', 'TreeParams']);
      expect(refsIn(definitions['TreeParams'])).toContain('#/$defs/TreeParams');
    });

    it('should pick a definition name no nested class uses', () => {
      const schema = outputJsonSchema(Node, 'array');

      const definitions = schema['$defs'] as Record<string, unknown>;
      expect(Object.keys(definitions).sort()).toEqual(['Node', 'Node2']);
      const validate = createAjv().compile(schema);
      const node = { inner: { text: 'a' }, children: [{ inner: { text: 'b' } }] };
      expect(validate({ items: [node] })).toBe(true);
      expect(validate({ items: [{ inner: { text: 'a' }, children: [{ inner: {} }] }] })).toBe(
        false,
      );
    });

    it('should accept a sample list and reject a bare array with ajv', () => {
      const validate = createAjv().compile(outputJsonSchema(TreeParams, 'array'));
      const tree = { label: 'root', children: [{ label: 'a', children: [{ label: 'a1' }] }] };
      // Children pass only because "#" was retargeted: the wrapper itself would reject them.

      expect(validate({ items: [tree, { label: 'solo' }] })).toBe(true);
      expect(validate({ items: [] })).toBe(true);
      expect(validate([tree])).toBe(false);
      expect(validate({})).toBe(false);
      expect(validate({ items: [tree], extra: 1 })).toBe(false);
      expect(
        validate({ items: [{ label: 'root', children: [{ label: 'a', children: [{}] }] }] }),
      ).toBe(false);
    });

    describe.each(zoo.map((entry) => [entry.name, entry] as const))('zoo: %s', (_name, entry) => {
      it.each(profiles)('should compile with ajv and resolve every $ref (%s)', (profile) => {
        const ajv = createAjv();
        const schema = outputJsonSchema(entry.params, 'array', profile);

        expect(ajv.validateSchema(schema)).toBe(true);
        expect(() => ajv.compile(schema)).not.toThrow();
      });

      it('should agree with parseStructuredOutput on the valid and invalid payloads', async () => {
        const validate = createAjv().compile(outputJsonSchema(entry.params, 'array'));

        expect({ ajv: validate({ items: entry.valid }), errors: validate.errors ?? null }).toEqual({
          ajv: true,
          errors: null,
        });
        await expect(
          parseStructuredOutput(entry.params, 'array', { parsed: { items: entry.valid } }),
        ).resolves.toHaveLength(entry.valid.length);
        for (const payload of entry.invalid) {
          const wrapped = { items: [...entry.valid, payload] };
          expect({ payload, ajv: validate(wrapped) }).toEqual({ payload, ajv: false });
          await expect(
            parseStructuredOutput(entry.params, 'array', { parsed: wrapped }),
          ).rejects.toMatchObject({ code: 'output_parse' });
        }
      });

      it('should accept the strict form of the valid payloads under openai-strict', async () => {
        const strictClass = toJsonSchema(entry.params, 'openai-strict').schema;
        const items = entry.valid.map((payload) => toStrictPayload(strictClass, payload as Json));
        const validate = createAjv().compile(
          outputJsonSchema(entry.params, 'array', 'openai-strict'),
        );

        expect(validate({ items })).toBe(true);
        await expect(
          parseStructuredOutput(
            entry.params,
            'array',
            { parsed: { items } },
            {
              profile: 'openai-strict',
            },
          ),
        ).resolves.toHaveLength(items.length);
      });

      it('should be left unchanged by the openai SDK strict transform, when strict-compatible', () => {
        if (!toJsonSchema(entry.params, 'openai-strict').strictCompatible) return;
        const schema = outputJsonSchema(entry.params, 'array', 'openai-strict');

        const copy = structuredClone(schema) as Parameters<typeof toStrictJsonSchema>[0];
        expect(toStrictJsonSchema(copy)).toEqual(schema);
      });
    });
  });
});
