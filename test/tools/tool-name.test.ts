import fc from 'fast-check';

import { PromptValidationError } from '../../src/core/errors/prompt-validation-error.js';
import {
  TOOL_NAME_PATTERN,
  toolNameFromMethod,
  validateDescription,
  validateToolName,
} from '../../src/tools/tool-name.js';
import { catchError } from '../support/catch-error.js';

class LookupParams {
  entityId = '';
}

const patternMessage =
  'Tool name must match the OpenAI function name constraints (pattern: ^[a-z0-9_-]{1,64}$).';

describe('validateToolName', () => {
  describe('when the name is valid', () => {
    it.each(['lookup_entity', 'lookup-entity', 'a', '0', '_', '-', 'v2_search', 'x'.repeat(64)])(
      'should return %j unchanged',
      (name) => {
        expect(validateToolName(name, LookupParams)).toBe(name);
      },
    );
  });

  describe('when the name has surrounding whitespace', () => {
    it.each([' lookup', 'lookup ', '\tlookup', 'lookup\n', '  lookup  '])(
      'should reject %j instead of stripping it',
      (name) => {
        const error = catchError(PromptValidationError, () => validateToolName(name, LookupParams));
        expect(error.message).toContain('Tool name must not contain surrounding whitespace.');
        expect(error.message).toContain("Write 'lookup'.");
        expect(error.placeholder).toBe('lookup');
        expect(error.paramsType).toBe(LookupParams);
      },
    );

    it('should suggest a valid name rather than the invalid stripped one', () => {
      const error = catchError(PromptValidationError, () =>
        validateToolName(' Lookup Entity ', undefined),
      );
      expect(error.message).toContain('Tool name must not contain surrounding whitespace.');
      expect(error.message).not.toContain("Write 'Lookup Entity'");
      expect(error.message).toContain("Try 'lookup_entity'.");
      expect(error.placeholder).toBe('Lookup Entity');
    });

    it('should not suggest an empty name for a name made only of whitespace', () => {
      const error = catchError(PromptValidationError, () => validateToolName('   ', undefined));
      expect(error.message).toContain('Tool name must not contain surrounding whitespace.');
      expect(error.message).not.toContain("Write ''");
      expect(error.placeholder).toBe('');
    });
  });

  describe('when the name is empty', () => {
    it('should explain the allowed characters with an empty placeholder', () => {
      const error = catchError(PromptValidationError, () => validateToolName('', LookupParams));
      expect(error.message).toContain(
        'Tool name must match the OpenAI function name constraints (1-64 lowercase ASCII letters, digits, underscores, or hyphens).',
      );
      expect(error.placeholder).toBe('');
      expect(error.paramsType).toBe(LookupParams);
    });
  });

  describe('when the name breaks the pattern', () => {
    it.each([
      ['uppercase letters', 'lookupEntity', 'lookup_entity'],
      ['a leading capital', 'Lookup', 'lookup'],
      ['inner spaces', 'lookup entity', 'lookup_entity'],
      ['dots', 'entity.lookup', 'entity_lookup'],
    ])('should quote the pattern and suggest a fix for %s', (_case, name, suggestion) => {
      const error = catchError(PromptValidationError, () => validateToolName(name, LookupParams));
      expect(error.message).toContain(patternMessage);
      expect(error.message).toContain(`Try '${suggestion}'.`);
      expect(error.placeholder).toBe(name);
      expect(error.paramsType).toBe(LookupParams);
    });

    it('should reject 65 characters and suggest the first 64', () => {
      const name = 'a'.repeat(65);
      const error = catchError(PromptValidationError, () => validateToolName(name, undefined));
      expect(error.message).toContain(patternMessage);
      expect(error.message).toContain(`Try '${'a'.repeat(64)}'.`);
      expect(error.placeholder).toBe(name);
      expect(error.paramsType).toBeUndefined();
    });

    it('should only ever suggest names that match the pattern', () => {
      fc.assert(
        fc.property(fc.string({ minLength: 1, maxLength: 80 }), (name) => {
          fc.pre(name.trim() === name && !TOOL_NAME_PATTERN.test(name));
          const error = catchError(PromptValidationError, () => validateToolName(name, undefined));
          expect(error.message).toContain(patternMessage);
          const offered = /Try '([^']*)'\./.exec(error.message)?.[1];
          if (offered !== undefined) expect(offered).toMatch(TOOL_NAME_PATTERN);
        }),
      );
    });
  });
});

describe('validateDescription', () => {
  describe('when the description is valid', () => {
    it('should return it stripped of surrounding whitespace', () => {
      expect(
        validateDescription('  Fetch an entity.\n', 'Tool description', undefined, 'description'),
      ).toBe('Fetch an entity.');
    });

    it('should accept exactly 200 characters', () => {
      const text = 'x'.repeat(200);
      expect(validateDescription(text, 'Tool description', undefined, 'description')).toBe(text);
    });

    it('should count the length after stripping', () => {
      const text = `  ${'x'.repeat(200)}  `;
      expect(validateDescription(text, 'Tool description', undefined, 'description')).toBe(
        'x'.repeat(200),
      );
    });
  });

  describe('when the description has the wrong length', () => {
    it.each([
      ['empty', ''],
      ['only whitespace', '   \n '],
      ['201 characters', 'x'.repeat(201)],
    ])('should reject it when %s', (_case, text) => {
      const error = catchError(PromptValidationError, () =>
        validateDescription(text, 'Tool description', LookupParams, 'description'),
      );
      expect(error.message).toContain('Tool description must be 1-200 ASCII characters');
      expect(error.placeholder).toBe('description');
      expect(error.paramsType).toBe(LookupParams);
    });

    it('should name the subject it was given', () => {
      const error = catchError(PromptValidationError, () =>
        validateDescription('', 'Tool example description', undefined, 'description'),
      );
      expect(error.message).toContain('Tool example description must be 1-200 ASCII characters');
    });
  });

  describe('when the description is not ASCII', () => {
    it('should name the offending character', () => {
      const error = catchError(PromptValidationError, () =>
        validateDescription('Fetch the café menu.', 'Tool description', undefined, 'description'),
      );
      expect(error.message).toContain('Tool description must be ASCII');
      expect(error.message).toContain("'é'");
      expect(error.placeholder).toBe('description');
    });

    it('should reject characters beyond the basic plane', () => {
      const error = catchError(PromptValidationError, () =>
        validateDescription('Search 🔍 quickly.', 'Tool description', undefined, 'description'),
      );
      expect(error.message).toContain('must be ASCII');
    });
  });
});

describe('toolNameFromMethod', () => {
  it.each([
    ['lookup', 'lookup'],
    ['lookupEntity', 'lookup_entity'],
    ['readPlanV2', 'read_plan_v2'],
    ['fetch2Items', 'fetch2_items'],
  ])('should turn %s into %s', (method, name) => {
    expect(toolNameFromMethod(method)).toBe(name);
  });
});
