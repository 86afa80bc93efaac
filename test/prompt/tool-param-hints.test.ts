import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

import {
  describePrompt,
  Describe,
  MarkdownSection,
  Prompt,
  type PromptOverride,
  ToolDefinition,
  ToolResult,
} from 'affordance';

class SearchParams {
  @Describe('Words to look for')
  @IsString()
  query!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  limit?: number = 10;

  @IsOptional()
  @IsString()
  language?: string;
}

const search = new ToolDefinition({
  name: 'search',
  description: 'Search the articles.',
  params: SearchParams,
  handler: () => ToolResult.ok(null),
});
const refresh = new ToolDefinition({
  name: 'refresh',
  description: 'Refresh the index.',
  handler: () => ToolResult.ok(null),
});

const prompt = new Prompt({
  ns: 'test',
  key: 'hints',
  sections: [
    new MarkdownSection({
      key: 'docs',
      title: 'Docs',
      template: 'Search.',
      tools: [search, refresh],
    }),
  ],
});

describe('RenderedPrompt.toolParamHints', () => {
  it('should carry the description, type, requiredness and default of every field', () => {
    const hints = prompt.render().toolParamHints.get('search');

    expect(Object.fromEntries(hints ?? [])).toEqual({
      query: {
        description: 'Words to look for',
        type: 'string',
        required: true,
        hasDefault: false,
      },
      limit: {
        description: undefined,
        type: 'integer',
        required: false,
        hasDefault: true,
        default: 10,
      },
      language: { description: undefined, type: 'string', required: false, hasDefault: false },
    });
    expect(prompt.render().toolParamHints.has('refresh')).toBe(false);
  });

  it('should take descriptions from prompt overrides, as toolParamDescriptions does', () => {
    const hash = describePrompt(prompt).tools.find((tool) => tool.name === 'search')?.contractHash;
    const overrides: PromptOverride = {
      ns: 'test',
      key: 'hints',
      tag: 'latest',
      sections: [],
      tools: [
        {
          name: 'search',
          expectedContractHash: hash ?? '',
          paramDescriptions: { limit: 'How many articles, 1 to 50' },
        },
      ],
    };

    const rendered = prompt.render({ overrides });

    expect(rendered.toolParamHints.get('search')?.get('limit')?.description).toBe(
      rendered.toolParamDescriptions.get('search')?.get('limit'),
    );
    expect(rendered.toolParamHints.get('search')?.get('limit')?.description).toBe(
      'How many articles, 1 to 50',
    );
  });
});
