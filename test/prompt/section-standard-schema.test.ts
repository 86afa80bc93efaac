/**
 * Sections whose params are a Standard Schema (zod 4, valibot wrapped with
 * its Standard JSON Schema converter, arktype): placeholders checked against
 * the schema's properties when the section is built, the value given with
 * `sectionParams` validated (its output fills the template), defaults, and
 * the failures.
 */
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';

import {
  ConfigurationError,
  MarkdownSection,
  Prompt,
  PromptRenderError,
  PromptValidationError,
  Section,
  sectionParams,
  type StandardSchemaV1,
} from 'affordance';

const Guidance = z.object({
  primaryTool: z.string().min(1),
  tone: z.enum(['brief', 'warm']).default('brief'),
});

function guidancePrompt(enabledWhen?: (params: z.infer<typeof Guidance> | undefined) => boolean) {
  const section = new MarkdownSection({
    key: 'guidance',
    title: 'Guidance',
    params: Guidance,
    template: 'Prefer ${primaryTool}. Be ${tone}.',
    ...(enabledWhen === undefined ? {} : { enabled: enabledWhen }),
  });
  return new Prompt({ ns: 'test', key: 'guided', sections: [section] });
}

describe('A section with a Standard Schema as params', () => {
  it("fills the template with the schema's output (defaults applied)", () => {
    const text = guidancePrompt().render({
      params: [sectionParams(Guidance, { primaryTool: 'lookup_order' })],
    }).text;

    expect(text).toBe('## 1. Guidance (guidance)\n\nPrefer lookup_order. Be brief.');
  });

  it('hands the enabled predicate the validated value', () => {
    const seen: unknown[] = [];
    const prompt = guidancePrompt((params) => {
      seen.push(params);
      return params?.tone === 'warm';
    });

    const hidden = prompt.render({ params: [sectionParams(Guidance, { primaryTool: 'a' })] });
    const shown = prompt.render({
      params: [sectionParams(Guidance, { primaryTool: 'a', tone: 'warm' })],
    });

    expect(hidden.text).toBe('');
    expect(shown.text).toContain('Be warm.');
    expect(seen).toEqual([
      { primaryTool: 'a', tone: 'brief' },
      { primaryTool: 'a', tone: 'warm' },
    ]);
  });

  it('refuses a value the schema rejects, listing every issue with its path', () => {
    const render = () =>
      guidancePrompt().render({
        params: [sectionParams(Guidance, { primaryTool: '', tone: 'loud' as 'brief' })],
      });

    expect(render).toThrow(PromptValidationError);
    expect(render).toThrow(
      /^params\[0\] do not match the section params \(zod schema\): primaryTool: Too small: .+; tone: Invalid option: .+\. Pass values the schema accepts\./,
    );
  });

  it('refuses an unknown placeholder when the section is built, naming the properties', () => {
    expect(
      () =>
        new MarkdownSection({
          key: 'guidance',
          title: 'Guidance',
          params: Guidance,
          template: 'Prefer ${primaryTol}.',
        }),
    ).toThrow(
      "Template references unknown placeholder ${primaryTol}: the section params (zod schema) have no property 'primaryTol' (properties: primaryTool, tone).",
    );
  });

  it('uses defaultParams, validated when the section is built', () => {
    const section = new MarkdownSection({
      key: 'guidance',
      title: 'Guidance',
      params: Guidance,
      defaultParams: { primaryTool: 'search', tone: 'warm' },
      template: 'Prefer ${primaryTool}. Be ${tone}.',
    });
    const prompt = new Prompt({ ns: 'test', key: 'defaults', sections: [section] });

    expect(prompt.render().text).toContain('Prefer search. Be warm.');
    expect(
      () =>
        new MarkdownSection({
          key: 'guidance',
          title: 'Guidance',
          params: Guidance,
          defaultParams: { primaryTool: '' } as z.infer<typeof Guidance>,
        }),
    ).toThrow(/^defaultParams do not match the section params \(zod schema\): primaryTool: /);
  });

  it('says what to pass when no value is given and the schema rejects {}', () => {
    const render = () => guidancePrompt().render();

    expect(render).toThrow(PromptRenderError);
    expect(render).toThrow(/no sectionParams\(schema, value\) for its zod schema was passed/);
  });

  it('refuses a value of a schema no section declares, and a duplicate', () => {
    const Other = z.object({ primaryTool: z.string() });
    const prompt = guidancePrompt();

    expect(() => prompt.render({ params: [sectionParams(Other, { primaryTool: 'a' })] })).toThrow(
      /no section of the prompt declares as its params/,
    );
    expect(() =>
      prompt.render({
        params: [
          sectionParams(Guidance, { primaryTool: 'a' }),
          sectionParams(Guidance, { primaryTool: 'b' }),
        ],
      }),
    ).toThrow(/two values of one section params schema \(zod schema\)/);
  });

  it('works on a @Section class', () => {
    @Section({ key: 'desk', title: 'Desk', params: Guidance, template: 'Use ${primaryTool}.' })
    class Desk {}
    const prompt = new Prompt({ ns: 'test', key: 'desk', sections: [Desk] });

    expect(prompt.render({ params: [sectionParams(Guidance, { primaryTool: 'x' })] }).text).toBe(
      '## 1. Desk (desk)\n\nUse x.',
    );
  });

  const libraries: [string, StandardSchemaV1][] = [
    [
      'valibot',
      toStandardJsonSchema(v.object({ primaryTool: v.pipe(v.string(), v.minLength(1)) })),
    ],
    ['arktype', type({ primaryTool: 'string>0' })],
  ];

  it.each(libraries)('renders and validates with %s', (vendor, schema) => {
    const prompt = new Prompt({
      ns: 'test',
      key: vendor,
      sections: [
        new MarkdownSection({
          key: 'g',
          title: 'G',
          params: schema,
          template: 'Use ${primaryTool}.',
        }),
      ],
    });

    expect(prompt.render({ params: [sectionParams(schema, { primaryTool: 'x' })] }).text).toBe(
      '## 1. G (g)\n\nUse x.',
    );
    expect(() => prompt.render({ params: [sectionParams(schema, { primaryTool: '' })] })).toThrow(
      new RegExp(
        `^params\\[0\\] do not match the section params \\(${vendor} schema\\): primaryTool: `,
      ),
    );
  });

  it('refuses placeholders over a schema without JSON Schema support, saying how to wrap it', () => {
    const bare = v.object({ primaryTool: v.string() });

    expect(
      () => new MarkdownSection({ key: 'g', title: 'G', params: bare, template: '${primaryTool}' }),
    ).toThrow(ConfigurationError);
    expect(
      () => new MarkdownSection({ key: 'g', title: 'G', params: bare, template: '${primaryTool}' }),
    ).toThrow(/toStandardJsonSchema\(schema\)/);
  });
});
