import { readFileSync } from 'node:fs';

import { Ajv2020 } from 'ajv/dist/2020.js';
import { isDateString, isEmail, isURL, isUUID } from 'class-validator';
import { toStrictJsonSchema } from 'openai/lib/transform';

import { dump } from '../../src/schema/dump.js';
import type { SchemaProfile } from '../../src/schema/params-json-schema.js';
import { parseToolArguments } from '../../src/schema/parse-tool-arguments.js';
import { toJsonSchema } from '../../src/schema/to-json-schema.js';
import { toStrictPayload } from '../support/strict-payload.js';
import { zoo } from './zoo/index.js';

type Json = Parameters<typeof toStrictPayload>[1];

function fixture(name: string, profile: SchemaProfile): Record<string, unknown> {
  const url = new URL(`../fixtures/schemas/${name}.${profile}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
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

async function accepts(params: new () => object, payload: unknown, profile?: SchemaProfile) {
  try {
    return await parseToolArguments(params, payload, profile === undefined ? {} : { profile });
  } catch {
    return undefined;
  }
}

describe('the schema zoo', () => {
  describe.each(zoo.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
    it.each(['standard', 'openai-strict'] as const)(
      'should produce the checked-in %s schema',
      (profile) => {
        expect(toJsonSchema(entry.params, profile).schema).toEqual(fixture(entry.name, profile));
      },
    );

    it('should produce valid JSON Schema 2020-12 documents for both profiles', () => {
      const ajv = createAjv();
      for (const profile of ['standard', 'openai-strict'] as const) {
        const schema = toJsonSchema(entry.params, profile).schema;
        expect(ajv.validateSchema(schema)).toBe(true);
        expect(() => ajv.compile(schema)).not.toThrow();
      }
    });

    it('should accept the valid payloads with both ajv and parseToolArguments', async () => {
      const validate = createAjv().compile(toJsonSchema(entry.params, 'standard').schema);
      for (const payload of entry.valid) {
        expect({ payload, errors: validate(payload) ? null : validate.errors }).toEqual({
          payload,
          errors: null,
        });
        expect({ payload, parsed: (await accepts(entry.params, payload)) !== undefined }).toEqual({
          payload,
          parsed: true,
        });
      }
    });

    it('should reject the invalid payloads with both ajv and parseToolArguments', async () => {
      const validate = createAjv().compile(toJsonSchema(entry.params, 'standard').schema);
      for (const payload of entry.invalid) {
        expect({ payload, ajv: validate(payload) }).toEqual({ payload, ajv: false });
        expect({ payload, parsed: await accepts(entry.params, payload) }).toEqual({
          payload,
          parsed: undefined,
        });
      }
    });

    it('should parse the strict form of every valid payload to the same value', async () => {
      const strict = toJsonSchema(entry.params, 'openai-strict');
      const validate = createAjv().compile(strict.schema);
      for (const payload of entry.valid) {
        const strictPayload = toStrictPayload(strict.schema, payload as Json);
        expect({ strictPayload, ajv: validate(strictPayload) }).toEqual({
          strictPayload,
          ajv: true,
        });
        const fromStrict = await parseToolArguments(entry.params, strictPayload, {
          profile: 'openai-strict',
        });
        const fromStandard = await parseToolArguments(entry.params, payload);
        expect(dump(fromStrict)).toEqual(dump(fromStandard));
      }
    });

    it('should give a strict schema the openai SDK accepts unchanged, when strict-compatible', () => {
      const result = toJsonSchema(entry.params, 'openai-strict');
      if (!result.strictCompatible) {
        expect(result.strictBlockers.length).toBeGreaterThan(0);
        return;
      }
      const copy = structuredClone(result.schema) as Parameters<typeof toStrictJsonSchema>[0];
      expect(toStrictJsonSchema(copy)).toEqual(result.schema);
    });
  });

  it('should include strict-incompatible classes, so the check above is not vacuous', () => {
    const compatibility = zoo.map(
      (entry) => toJsonSchema(entry.params, 'openai-strict').strictCompatible,
    );
    expect(compatibility).toContain(true);
    expect(compatibility).toContain(false);
  });
});
