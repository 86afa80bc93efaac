import { readFileSync } from 'node:fs';

import {
  MarkdownSection,
  NativeTool,
  type NativeToolType,
  Prompt,
  PromptValidationError,
} from 'affordance';

import { catchError, catchRejection } from '../support/catch-error.js';
import { type AnthropicHarness, startAnthropic } from '../support/anthropic-harness.js';
import { message as anthropicMessage, text } from '../support/anthropic-payloads.js';
import { type OpenAIHarness, startOpenAI } from '../support/openai-harness.js';
import { message, responseBody } from '../support/openai-payloads.js';

type Schema = Record<string, unknown>;

const promptWith = (...tools: NativeTool[]): Prompt =>
  new Prompt({
    ns: 'test/native-contract',
    key: 'native',
    sections: [
      new MarkdownSection({ key: 'tools', title: 'Tools', template: 'Use the tools.', tools }),
    ],
  });

/** OpenAI's published schemas (the OpenAPI document's `components.schemas`, as extracted for the test server). */
const schemas = (
  JSON.parse(
    readFileSync(new URL('../fixtures/openai/openapi-schemas.json', import.meta.url), 'utf8'),
  ) as { components: { schemas: Record<string, Schema> } }
).components.schemas;

/** A value the schema accepts: the first enum value, the first non-null variant, required fields of objects. */
function sample(schema: Schema): unknown {
  const ref = schema['$ref'];
  if (typeof ref === 'string') return sample(schemas[ref.split('/').at(-1) ?? ''] ?? {});
  const variants = (schema['anyOf'] ?? schema['oneOf']) as Schema[] | undefined;
  if (variants !== undefined)
    return sample(variants.find((variant) => variant['type'] !== 'null') ?? {});
  if (Array.isArray(schema['enum'])) return schema['enum'][0];
  switch (schema['type']) {
    case 'string':
      return 'x';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [sample((schema['items'] as Schema | undefined) ?? { type: 'string' })];
    default: {
      const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
      const required = (schema['required'] ?? []) as string[];
      return Object.fromEntries(required.map((field) => [field, sample(properties[field] ?? {})]));
    }
  }
}

/** The native types OpenAI runs on its side, and the spec schema of each. */
const openaiSchemas: [NativeToolType, string][] = [
  ['web_search', 'WebSearchTool'],
  ['file_search', 'FileSearchTool'],
  ['code_interpreter', 'CodeInterpreterTool'],
  ['image_generation', 'ImageGenTool'],
  ['mcp', 'MCPTool'],
  ['shell', 'FunctionShellToolParam'],
];

describe('native tool params checked against the provider contract', () => {
  describe('OpenAIAdapter', () => {
    let harness: OpenAIHarness;

    beforeEach(async () => {
      harness = await startOpenAI();
    });
    afterEach(async () => {
      const problems = harness.server.problems();
      await harness.server.close();
      expect(problems).toEqual([]);
    });

    it.each(openaiSchemas)('should accept every field of the published %s tool', (type, name) => {
      const schema = schemas[name] ?? {};
      const config = Object.fromEntries(
        Object.entries(schema['properties'] as Record<string, Schema>).map(([field, property]) => [
          field,
          sample(property),
        ]),
      );

      expect(Object.keys(config).length).toBeGreaterThan(1);
      expect(() => {
        harness.adapter.validate([new NativeTool({ type, config })]);
      }).not.toThrow();
    });

    it('should refuse an unknown field before any request, naming the field and the ones it takes', async () => {
      const tool = new NativeTool({ type: 'web_search', config: { max_uses: 3 } });

      const error = await catchRejection(PromptValidationError, () =>
        harness.runtime.evaluate(promptWith(tool)),
      );

      expect(error.message).toContain('config.max_uses');
      expect(error.message).toContain('search_context_size');
      expect(error.placeholder).toBe('web_search');
      expect(harness.server.requests).toHaveLength(0);
    });

    it.each([
      [
        'search_context_size',
        'web_search',
        { search_context_size: 'huge' },
        '"low", "medium", "high"',
      ],
      [
        'max_num_results',
        'file_search',
        { vector_store_ids: ['vs_1'], max_num_results: 2.5 },
        'integer',
      ],
      ['container', 'code_interpreter', { container: 7 }, 'string or object'],
      [
        'headers',
        'mcp',
        { server_label: 'docs', server_url: 'https://mcp.test', headers: ['a'] },
        'object or null',
      ],
    ] as const)('should refuse a mistyped %s', (field, type, config, takes) => {
      const tool = new NativeTool({ type, config });

      const error = catchError(PromptValidationError, () => {
        harness.adapter.validate([tool]);
      });

      expect(error.message).toContain(`config.${field}`);
      expect(error.message).toContain(takes);
    });

    it('should send a config that fits the contract unchanged', async () => {
      harness.server.reply({ json: responseBody([message('Done.')]) });
      const config = { search_context_size: 'high', external_web_access: false, filters: null };

      await harness.runtime.evaluate(promptWith(new NativeTool({ type: 'web_search', config })));

      expect(harness.server.requests[0]?.body['tools']).toEqual([
        { type: 'web_search', ...config },
      ]);
    });
  });

  describe('AnthropicAdapter', () => {
    let harness: AnthropicHarness;

    beforeEach(async () => {
      harness = await startAnthropic();
    });
    afterEach(async () => {
      const problems = harness.server.problems();
      await harness.server.close();
      expect(problems).toEqual([]);
    });

    it('should refuse a field of the OpenAI tool on the Anthropic one before any request', async () => {
      const tool = new NativeTool({ type: 'web_search', config: { search_context_size: 'low' } });

      const error = await catchRejection(PromptValidationError, () =>
        harness.runtime.evaluate(promptWith(tool)),
      );

      expect(error.message).toContain('AnthropicAdapter');
      expect(error.message).toContain('config.search_context_size');
      expect(error.message).toContain('max_uses');
      expect(harness.server.requests).toHaveLength(0);
    });

    it.each([
      ['max_uses', 'web_search', { max_uses: '3' }, 'integer or null'],
      ['allowed_domains', 'web_fetch', { allowed_domains: 'example.com' }, 'an array of strings'],
      ['response_inclusion', 'web_search', { response_inclusion: 'some' }, '"full", "excluded"'],
      ['strict', 'code_execution', { strict: 'yes' }, 'boolean'],
    ] as const)('should refuse a mistyped %s', (field, type, config, takes) => {
      const tool = new NativeTool({ type, config });

      const error = catchError(PromptValidationError, () => {
        harness.adapter.validate([tool]);
      });

      expect(error.message).toContain(`config.${field}`);
      expect(error.message).toContain(takes);
    });

    it('should send the fields of the server tool it documents', async () => {
      harness.server.reply({ json: anthropicMessage([text('Done.')]) });
      const config = {
        type: 'web_fetch_20250910',
        max_uses: 2,
        allowed_domains: ['example.com'],
        citations: { enabled: true },
        max_content_tokens: 1000,
      };

      await harness.runtime.evaluate(promptWith(new NativeTool({ type: 'web_fetch', config })));

      expect(harness.server.requests[0]?.body['tools']).toEqual([{ ...config, name: 'web_fetch' }]);
    });
  });
});
