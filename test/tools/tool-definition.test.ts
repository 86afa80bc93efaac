import { IsString } from 'class-validator';

import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { PromptValidationError } from '../../src/core/errors/prompt-validation-error.js';
import { ToolDefinition, type ToolDefinitionInit } from '../../src/tools/tool-definition.js';
import { ToolExample } from '../../src/tools/tool-example.js';
import { ToolResult } from '../../src/tools/tool-result.js';
import { catchError } from '../support/catch-error.js';

class LookupParams {
  @IsString() entityId!: string;
}
class SpecialLookupParams extends LookupParams {}
class LookupResult {
  entityId!: string;
}
class SpecialLookupResult extends LookupResult {}

const params = (entityId = 'e-1'): LookupParams => Object.assign(new LookupParams(), { entityId });
const result = (entityId = 'e-1'): LookupResult => Object.assign(new LookupResult(), { entityId });

function lookupTool(
  overrides: Partial<ToolDefinitionInit<LookupParams, LookupResult>> = {},
): ToolDefinition<LookupParams, LookupResult> {
  return new ToolDefinition<LookupParams, LookupResult>({
    name: 'lookup_entity',
    description: 'Fetch an entity.',
    params: LookupParams,
    result: LookupResult,
    handler: (p) => ToolResult.ok(result(p.entityId)),
    ...overrides,
  });
}

describe('ToolDefinition', () => {
  describe('when built', () => {
    it('should keep its name, params class, result class and handler', () => {
      const handler = (p: LookupParams): ToolResult<LookupResult> =>
        ToolResult.ok(result(p.entityId));
      const tool = lookupTool({ handler });
      expect(tool.name).toBe('lookup_entity');
      expect(tool.paramsType).toBe(LookupParams);
      expect(tool.resultType).toBe(LookupResult);
      expect(tool.resultContainer).toBe('object');
      expect(tool.handler).toBe(handler);
    });

    it('should store the description stripped', () => {
      expect(lookupTool({ description: '\n  Fetch an entity.  ' }).description).toBe(
        'Fetch an entity.',
      );
    });

    it('should read `[ResultClass]` as a list of that class', () => {
      const tool = lookupTool({ result: [LookupResult] });
      expect(tool.resultType).toBe(LookupResult);
      expect(tool.resultContainer).toBe('array');
    });

    it('should allow a tool without params or result', () => {
      const tool = new ToolDefinition({
        name: 'ping',
        description: 'Check that the service answers.',
        handler: () => ToolResult.ok('pong'),
      });
      expect(tool.paramsType).toBeUndefined();
      expect(tool.resultType).toBeUndefined();
      expect(tool.resultContainer).toBe('object');
    });

    it('should default to accepting overrides, not read-only, not native, without examples', () => {
      const tool = lookupTool();
      expect(tool.acceptsOverrides).toBe(true);
      expect(tool.readOnly).toBe(false);
      expect(tool.native).toBe(false);
      expect(tool.examples).toEqual([]);
    });

    it('should keep acceptsOverrides and readOnly when given', () => {
      const tool = lookupTool({ acceptsOverrides: false, readOnly: true });
      expect(tool.acceptsOverrides).toBe(false);
      expect(tool.readOnly).toBe(true);
    });
  });

  describe('when the name or description is invalid', () => {
    it('should reject a name with surrounding whitespace, naming the params class', () => {
      const error = catchError(PromptValidationError, () => lookupTool({ name: 'lookup_entity ' }));
      expect(error.message).toContain('Tool name must not contain surrounding whitespace.');
      expect(error.placeholder).toBe('lookup_entity');
      expect(error.paramsType).toBe(LookupParams);
    });

    it('should reject a name outside the pattern with a suggestion', () => {
      const error = catchError(PromptValidationError, () => lookupTool({ name: 'LookupEntity' }));
      expect(error.message).toContain('(pattern: ^[a-z0-9_-]{1,64}$)');
      expect(error.message).toContain("Try 'lookup_entity'.");
      expect(error.placeholder).toBe('LookupEntity');
    });

    it.each([
      ['empty', '  ', 'must be 1-200 ASCII characters'],
      ['too long', 'y'.repeat(201), 'must be 1-200 ASCII characters'],
      ['not ASCII', 'Fetch an entité.', "must be ASCII (found 'é'"],
    ])('should reject a description that is %s', (_case, description, expected) => {
      const error = catchError(PromptValidationError, () => lookupTool({ description }));
      expect(error.message).toContain(`Tool description ${expected}`);
      expect(error.placeholder).toBe('description');
      expect(error.paramsType).toBe(LookupParams);
    });
  });

  describe('when the handler is missing', () => {
    it('should reject the tool and point at NativeTool for provider-executed tools', () => {
      const error = catchError(PromptValidationError, () => lookupTool({ handler: undefined }));
      expect(error.message).toContain("Tool 'lookup_entity' has no handler.");
      expect(error.message).toContain('NativeTool');
      expect(error.placeholder).toBe('handler');
      expect(error.paramsType).toBe(LookupParams);
    });
  });

  describe('when the params class could never validate', () => {
    it('should fail at construction with a ConfigurationError naming the field', () => {
      class UndecoratedParams {
        entityId!: string;
      }
      const error = catchError(ConfigurationError, () => lookupTool({ params: UndecoratedParams }));
      expect(error.subject).toBe('UndecoratedParams.entityId');
      expect(error.message).toContain('has no class-validator decorator');
    });
  });

  describe('when given examples', () => {
    it('should keep valid examples, stripped and frozen', () => {
      const input = params('e-7');
      const output = result('e-7');
      const tool = lookupTool({
        examples: [new ToolExample({ description: '  Fetch e-7. ', input, output })],
      });
      expect(tool.examples).toHaveLength(1);
      const [example] = tool.examples;
      expect(example).toBeInstanceOf(ToolExample);
      expect(example?.description).toBe('Fetch e-7.');
      expect(example?.input).toBe(input);
      expect(example?.output).toBe(output);
      expect(Object.isFrozen(tool.examples)).toBe(true);
      expect(Object.isFrozen(example)).toBe(true);
    });

    it('should reject an entry that is not a ToolExample', () => {
      const lookalike = { description: 'Fetch e-1.', input: params(), output: result() };
      const error = catchError(PromptValidationError, () =>
        lookupTool({ examples: [lookalike as unknown as ToolExample<LookupParams>] }),
      );
      expect(error.message).toContain('examples must be ToolExample instances');
      expect(error.placeholder).toBe('examples');
      expect(error.paramsType).toBe(LookupParams);
    });

    it.each([
      ['empty', ' ', 'must be 1-200 ASCII characters'],
      ['too long', 'z'.repeat(201), 'must be 1-200 ASCII characters'],
      ['not ASCII', 'Fetch “e-1”.', "must be ASCII (found '“'"],
    ])('should reject an example description that is %s', (_case, description, expected) => {
      const error = catchError(PromptValidationError, () =>
        lookupTool({
          examples: [new ToolExample({ description, input: params(), output: result() })],
        }),
      );
      expect(error.message).toContain(`Tool example description ${expected}`);
      expect(error.placeholder).toBe('description');
    });

    describe('whose input', () => {
      it.each<[string, unknown, string]>([
        ['a subclass instance', new SpecialLookupParams(), 'an instance of SpecialLookupParams'],
        ['a plain object', { entityId: 'e-1' }, 'an instance of Object'],
        ['no value', undefined, 'undefined'],
        ['a string', 'e-1', 'a string'],
      ])('should reject %s', (_case, input, got) => {
        const error = catchError(PromptValidationError, () =>
          lookupTool({
            examples: [
              new ToolExample({
                description: 'Fetch.',
                input: input as LookupParams,
                output: result(),
              }),
            ],
          }),
        );
        expect(error.message).toContain('Tool example input must match the tool params type');
        expect(error.message).toContain(`expects an instance of LookupParams, got ${got}`);
        expect(error.placeholder).toBe('examples');
        expect(error.paramsType).toBe(LookupParams);
      });

      it('should be undefined for a tool without params', () => {
        const base = {
          name: 'ping',
          description: 'Check that the service answers.',
          handler: () => ToolResult.ok(null),
        };
        expect(
          new ToolDefinition({ ...base, examples: [new ToolExample({ description: 'Ping.' })] })
            .examples,
        ).toHaveLength(1);
        const error = catchError(
          PromptValidationError,
          () =>
            new ToolDefinition({
              ...base,
              examples: [new ToolExample({ description: 'Ping.', input: params() })],
            }),
        );
        expect(error.message).toContain('Tool example input must match the tool params type');
        expect(error.message).toContain('expects no input, got an instance of LookupParams');
      });
    });

    describe('whose output', () => {
      const withOutput = (
        output: unknown,
        declared: ToolDefinitionInit['result'],
      ): ToolDefinition<LookupParams, LookupResult> =>
        lookupTool({
          result: declared,
          examples: [new ToolExample({ description: 'Fetch.', input: params(), output })],
        });

      it('should accept an instance of exactly the result class', () => {
        expect(withOutput(result(), LookupResult).examples).toHaveLength(1);
      });

      it.each<[string, unknown, string]>([
        ['a subclass instance', new SpecialLookupResult(), 'an instance of SpecialLookupResult'],
        ['a plain object', { entityId: 'e-1' }, 'an instance of Object'],
        ['no value', undefined, 'undefined'],
        ['an array', [result()], 'an array'],
      ])('should reject %s for an object result', (_case, output, got) => {
        const error = catchError(PromptValidationError, () => withOutput(output, LookupResult));
        expect(error.message).toContain('Tool example output must match the tool result type');
        expect(error.message).toContain(`expects an instance of LookupResult, got ${got}`);
        expect(error.placeholder).toBe('examples');
      });

      it('should accept an array of exact instances, or an empty array, for `[ResultClass]`', () => {
        expect(withOutput([result('a'), result('b')], [LookupResult]).examples).toHaveLength(1);
        expect(withOutput([], [LookupResult]).examples).toHaveLength(1);
      });

      it.each<[string, unknown]>([
        ['a single instance', result()],
        ['an array with a subclass instance', [result(), new SpecialLookupResult()]],
        ['an array with a plain object', [{ entityId: 'e-1' }]],
      ])('should reject %s for `[ResultClass]`', (_case, output) => {
        const error = catchError(PromptValidationError, () => withOutput(output, [LookupResult]));
        expect(error.message).toContain('Tool example output must match the tool result type');
        expect(error.message).toContain('expects an array of LookupResult instances');
      });

      it('should be undefined when no result class is declared', () => {
        expect(withOutput(undefined, undefined).examples).toHaveLength(1);
        const error = catchError(PromptValidationError, () => withOutput(result(), undefined));
        expect(error.message).toContain('Tool example output must match the tool result type');
        expect(error.message).toContain('declare `result`');
      });
    });
  });

  describe('.withDescription', () => {
    it('should return a copy with the new description, stripped, leaving the original unchanged', () => {
      const tool = lookupTool({ readOnly: true });
      const copy = tool.withDescription('  Fetch one entity by id. ');
      expect(copy).not.toBe(tool);
      expect(copy).toBeInstanceOf(ToolDefinition);
      expect(copy.description).toBe('Fetch one entity by id.');
      expect(tool.description).toBe('Fetch an entity.');
      expect(copy.name).toBe(tool.name);
      expect(copy.handler).toBe(tool.handler);
      expect(copy.paramsType).toBe(LookupParams);
      expect(copy.readOnly).toBe(true);
    });

    it('should validate the new description', () => {
      const tool = lookupTool();
      const error = catchError(PromptValidationError, () => tool.withDescription('x'.repeat(201)));
      expect(error.message).toContain('Tool description must be 1-200 ASCII characters');
      expect(error.paramsType).toBe(LookupParams);
      expect(tool.description).toBe('Fetch an entity.');
    });
  });
});
