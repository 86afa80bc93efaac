import { IsString } from 'class-validator';

import { MarkdownSection, Prompt, ToolDefinition, ToolResult } from 'affordance';

class TopicParams {
  @IsString()
  topic = 'sales';
}

const tool = (name: string): ToolDefinition =>
  new ToolDefinition({
    name,
    description: `The ${name} tool.`,
    handler: () => ToolResult.ok(null),
  });

const prompt = new Prompt({
  ns: 'test',
  key: 'enabled-tools',
  sections: [
    new MarkdownSection({
      key: 'hidden',
      title: 'Hidden',
      template: 'Never shown.',
      enabled: () => false,
      tools: [tool('hidden_tool')],
      children: [
        new MarkdownSection({
          key: 'child',
          title: 'Child',
          template: 'Child.',
          tools: [tool('child_tool')],
        }),
      ],
    }),
    new MarkdownSection({
      key: 'billing',
      title: 'Billing',
      params: TopicParams,
      defaultParams: new TopicParams(),
      template: 'About ${topic}.',
      enabled: (params) => params?.topic === 'billing',
      tools: [tool('refund')],
    }),
    new MarkdownSection({
      key: 'always',
      title: 'Always',
      template: 'Search.',
      tools: [tool('search')],
    }),
  ],
});

describe('Prompt.tools()', () => {
  it('should return the tools of the enabled sections, honouring section defaults', () => {
    expect(prompt.tools().map((entry) => entry.name)).toEqual(['search']);
  });

  it('should follow the params a render would get', () => {
    const billing = Object.assign(new TopicParams(), { topic: 'billing' });

    expect(prompt.tools({ params: [billing] }).map((entry) => entry.name)).toEqual([
      'refund',
      'search',
    ]);
    expect(prompt.tools({ params: [billing] })).toEqual(prompt.render({ params: [billing] }).tools);
  });

  it('should keep every declared tool under allTools', () => {
    expect(prompt.allTools.map((entry) => entry.name)).toEqual([
      'hidden_tool',
      'child_tool',
      'refund',
      'search',
    ]);
  });
});
