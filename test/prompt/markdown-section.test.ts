import { IsString } from 'class-validator';

import { PromptRenderError } from '../../src/core/errors/prompt-render-error.js';
import { PromptValidationError } from '../../src/core/errors/prompt-validation-error.js';
import { MarkdownSection } from '../../src/prompt/markdown-section.js';
import { ToolDefinition } from '../../src/tools/tool-definition.js';
import { ToolResult } from '../../src/tools/tool-result.js';

class GreetingParams {
  @IsString() name!: string;
  tone = 'friendly';
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('MarkdownSection', () => {
  describe('when built', () => {
    it('should accept placeholders that name fields of the params class', () => {
      const section = new MarkdownSection({
        key: 'greeting',
        title: 'Greeting',
        params: GreetingParams,
        template: 'Greet ${name} in a ${tone} way.',
      });
      expect(section.template.placeholders).toEqual(['name', 'tone']);
    });

    it('should reject a placeholder that is not a field, naming the field list', () => {
      const error = thrown(
        () =>
          new MarkdownSection({
            key: 'greeting',
            title: 'Greeting',
            params: GreetingParams,
            template: 'Hi ${nmae}',
          }),
      );
      expect(PromptValidationError.is(error)).toBe(true);
      const e = error as PromptValidationError;
      expect(e.message).toContain('Template references unknown placeholder ${nmae}');
      expect(e.message).toContain('fields: name, tone');
      expect(e.placeholder).toBe('nmae');
      expect(e.paramsType).toBe(GreetingParams);
      expect(e.sectionPath).toEqual(['greeting']);
    });

    it('should reject placeholders in a section without params', () => {
      const error = thrown(
        () => new MarkdownSection({ key: 'intro', title: 'Intro', template: 'Hi ${b} ${a}' }),
      );
      expect((error as PromptValidationError).message).toContain(
        'Section does not accept parameters but declares placeholders',
      );
      expect((error as PromptValidationError).placeholder).toBe('a');
    });

    it('should reject a malformed placeholder', () => {
      const error = thrown(
        () => new MarkdownSection({ key: 'intro', title: 'Intro', template: 'Cost: ${1x}' }),
      );
      expect((error as PromptValidationError).message).toContain(
        "Template placeholder '${1x}' is malformed",
      );
    });

    it.each([
      ['', 'Section key must be a non-empty string.'],
      [
        'Guidance',
        "Section key must match ^[a-z0-9][a-z0-9._-]{0,63}$ (got 'Guidance'). Try 'guidance'.",
      ],
      ['-lead', 'Section key must match'],
      ['a'.repeat(65), 'Section key must match'],
    ])('should reject the key %p', (key, message) => {
      const error = thrown(() => new MarkdownSection({ key, title: 'T' }));
      expect(PromptValidationError.is(error)).toBe(true);
      expect((error as Error).message).toContain(message);
    });

    it('should reject an empty title', () => {
      expect(() => new MarkdownSection({ key: 'k', title: '  ' })).toThrow(
        "Section 'k' needs a non-empty title.",
      );
    });

    it('should reject defaultParams on a section without params', () => {
      expect(
        () =>
          new MarkdownSection({
            key: 'k',
            title: 'T',
            defaultParams: new GreetingParams() as never,
          }),
      ).toThrow('Section without parameters cannot define defaultParams.');
    });

    it('should reject defaultParams that are not an instance of the params class', () => {
      expect(
        () =>
          new MarkdownSection({
            key: 'k',
            title: 'T',
            params: GreetingParams,
            defaultParams: { name: 'Ada', tone: 'dry' },
          }),
      ).toThrow(
        'Section defaults must match section params type: pass an instance of GreetingParams',
      );
    });

    it('should reject tools that are not ToolDefinition instances', () => {
      expect(
        () =>
          new MarkdownSection({
            key: 'k',
            title: 'T',
            tools: [{ name: 'x' } as unknown as ToolDefinition],
          }),
      ).toThrow("Section tools must be ToolDefinition instances (section 'k', tools[0])");
    });
  });

  describe('.renderBody', () => {
    const section = new MarkdownSection({
      key: 'greeting',
      title: 'Greeting',
      params: GreetingParams,
      template: `
        Greet \${name} in a \${tone} way.
          Keep $5 prices and $HOME as they are; write $\${ for a literal.
      `,
    });

    it('should dedent, fill and trim the template', () => {
      const params = Object.assign(new GreetingParams(), { name: 'Ada' });
      expect(section.renderBody(params)).toBe(
        'Greet Ada in a friendly way.\n  Keep $5 prices and $HOME as they are; write ${ for a literal.',
      );
    });

    it('should fail with PromptRenderError when a placeholder has no value', () => {
      const error = thrown(() => section.renderBody(new GreetingParams()));
      expect(PromptRenderError.is(error)).toBe(true);
      expect((error as PromptRenderError).placeholder).toBe('name');
      expect((error as Error).message).toContain(
        'Missing placeholder during render: ${name} has no value',
      );
    });

    it('should format numbers, booleans, dates, lists and objects', () => {
      class Values {
        count = 3;
        flag = true;
        when = new Date('2026-01-02T03:04:05.000Z');
        tags = ['a', 'b'];
        nested = { x: 1, y: null };
      }
      const values = new MarkdownSection({
        key: 'values',
        title: 'Values',
        params: Values,
        template: '${count}|${flag}|${when}|${tags}|${nested}',
      });
      expect(values.renderBody(new Values())).toBe('3|true|2026-01-02T03:04:05.000Z|a, b|{"x":1}');
    });
  });

  it('should render a tool-only section with an empty body', () => {
    const tool = new ToolDefinition({
      name: 'ping',
      description: 'Ping.',
      handler: () => ToolResult.ok(null),
    });
    const section = new MarkdownSection({ key: 'tools', title: 'Tools', tools: [tool] });
    expect(section.renderBody(undefined)).toBe('');
    expect(section.tools).toEqual([tool]);
  });
});
