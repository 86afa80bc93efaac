import { IsInt, IsString } from 'class-validator';

import { Section } from '../../src/decorators/section.js';
import { Tool } from '../../src/decorators/tool.js';
import { PromptOverridesError } from '../../src/core/errors/prompt-overrides-error.js';
import { PromptRenderError } from '../../src/core/errors/prompt-render-error.js';
import { PromptValidationError } from '../../src/core/errors/prompt-validation-error.js';
import { describePrompt } from '../../src/prompt/overrides/prompt-descriptor.js';
import type { PromptOverride } from '../../src/prompt/overrides/prompt-override.js';
import { MarkdownSection } from '../../src/prompt/markdown-section.js';
import { Prompt } from '../../src/prompt/prompt.js';
import { Session } from '../../src/session/session.js';
import { catchError } from '../support/catch-error.js';
import type { ToolContext } from '../../src/tools/tool-context.js';
import { ToolDefinition } from '../../src/tools/tool-definition.js';
import { ToolExample } from '../../src/tools/tool-example.js';
import { ToolResult } from '../../src/tools/tool-result.js';

class TopicParams {
  topic = 'billing';
}
class LimitParams {
  @IsInt() limit!: number;
}
class SearchParams {
  @IsString() query!: string;
}
class Hit {
  @IsString() title!: string;
}

function tool(
  name: string,
  extra: Partial<ConstructorParameters<typeof ToolDefinition>[0]> = {},
): ToolDefinition {
  return new ToolDefinition({
    name,
    description: `The ${name} tool.`,
    handler: () => ToolResult.ok(null),
    ...extra,
  });
}

function section(
  key: string,
  extra: Partial<ConstructorParameters<typeof MarkdownSection>[0]> = {},
) {
  return new MarkdownSection({
    key,
    title: key.toUpperCase(),
    template: `Body of ${key}.`,
    ...extra,
  });
}

describe('Prompt', () => {
  describe('when built', () => {
    it('should reject a blank namespace or key', () => {
      expect(() => new Prompt({ ns: ' ', key: 'k', sections: [] })).toThrow(
        'Prompt namespace must be a non-empty string.',
      );
      expect(() => new Prompt({ ns: 'n', key: '', sections: [] })).toThrow(
        'Prompt key must be a non-empty string.',
      );
    });

    it('should store ns and key stripped and default the name to the key', () => {
      const prompt = new Prompt({ ns: ' demo ', key: ' triage ', sections: [] });
      expect([prompt.ns, prompt.key, prompt.name]).toEqual(['demo', 'triage', 'triage']);
    });

    it('should reject a duplicate tool name, naming both section paths', () => {
      const error = catchError(
        PromptValidationError,
        () =>
          new Prompt({
            ns: 'demo',
            key: 'dup',
            sections: [
              section('a', { tools: [tool('search')] }),
              section('b', { children: [section('c', { tools: [tool('search')] })] }),
            ],
          }),
      );
      expect(error.message).toContain(
        "'search' is contributed by section 'a' and by section 'b.c'",
      );
      expect(error.sectionPath).toEqual(['b', 'c']);
    });

    it('should reject duplicate sibling keys and a section used twice', () => {
      expect(
        () => new Prompt({ ns: 'd', key: 'k', sections: [section('a'), section('a')] }),
      ).toThrow("Duplicate section key 'a' under '(root)'");
      const shared = section('shared');
      expect(
        () =>
          new Prompt({
            ns: 'd',
            key: 'k',
            sections: [shared, section('p', { children: [shared] })],
          }),
      ).toThrow("Section 'p.shared' appears more than once in the prompt");
    });
  });

  describe('.render', () => {
    it('should number headings depth-first with the dotted path, joined by blank lines', () => {
      const prompt = new Prompt({
        ns: 'demo',
        key: 'tree',
        sections: [
          section('intro'),
          section('guide', {
            children: [section('tools', { children: [section('leaf')] }), section('tips')],
          }),
        ],
      });
      expect(prompt.render().text).toBe(
        [
          '## 1. INTRO (intro)\n\nBody of intro.',
          '## 2. GUIDE (guide)\n\nBody of guide.',
          '### 2.1. TOOLS (guide.tools)\n\nBody of tools.',
          '#### 2.1.1. LEAF (guide.tools.leaf)\n\nBody of leaf.',
          '### 2.2. TIPS (guide.tips)\n\nBody of tips.',
        ].join('\n\n'),
      );
    });

    it('should render a heading alone when the body is empty', () => {
      const prompt = new Prompt({
        ns: 'd',
        key: 'k',
        sections: [section('empty', { template: '' })],
      });
      expect(prompt.render().text).toBe('## 1. EMPTY (empty)');
    });

    it('should drop a disabled section with its subtree and tools, keeping the numbering gap', () => {
      const prompt = new Prompt({
        ns: 'demo',
        key: 'gap',
        sections: [
          section('hidden', {
            enabled: () => false,
            tools: [tool('a')],
            children: [section('child', { tools: [tool('b')] })],
          }),
          section('summary', { tools: [tool('c')] }),
        ],
      });
      const rendered = prompt.render();
      expect(rendered.text).toBe('## 2. SUMMARY (summary)\n\nBody of summary.');
      expect(rendered.tools.map((t) => t.name)).toEqual(['c']);
      expect(prompt.allTools.map((t) => t.name)).toEqual(['a', 'b', 'c']);
    });

    it('should give each render the tools of the sections it enables, in a render of its own', () => {
      const billingOnly = tool('refund');
      const prompt = new Prompt({
        ns: 'demo',
        key: 'switch',
        sections: [
          new MarkdownSection({
            key: 'billing',
            title: 'Billing',
            params: TopicParams,
            template: 'About ${topic}.',
            enabled: (params) => params?.topic === 'billing',
            tools: [billingOnly],
          }),
          section('always', { tools: [tool('search', { params: SearchParams })] }),
        ],
      });
      const sales = [Object.assign(new TopicParams(), { topic: 'sales' })];
      const first = prompt.render();
      const second = prompt.render({ params: sales });
      const third = prompt.render();

      expect([first, second, third].map((r) => r.tools.map((t) => t.name))).toEqual([
        ['refund', 'search'],
        ['search'],
        ['refund', 'search'],
      ]);
      expect(second.tool('refund')).toBeUndefined();
      expect(third.tool('refund')).toBe(billingOnly);
      expect(third.text).toBe(first.text);
      // Every render is its own object, even when it offers what the last one did.
      expect(third).not.toBe(first);
      expect(prompt.render()).not.toBe(third);
    });

    it('should pass the resolved params and the session to enabled predicates', () => {
      const seen: unknown[] = [];
      const session = new Session();
      const prompt = new Prompt({
        ns: 'd',
        key: 'k',
        sections: [
          new MarkdownSection({
            key: 'topic',
            title: 'Topic',
            params: TopicParams,
            template: 'About ${topic}.',
            enabled: (params, scope) => {
              seen.push(params?.topic, scope.session);
              return params?.topic === 'billing';
            },
          }),
        ],
      });
      expect(prompt.render({ session }).text).toBe('## 1. Topic (topic)\n\nAbout billing.');
      expect(seen).toEqual(['billing', session]);
      expect(
        prompt.render({ params: [Object.assign(new TopicParams(), { topic: 'sales' })] }).text,
      ).toBe('');
    });

    it('should turn a failing enabled predicate into PromptRenderError with the section path', () => {
      const prompt = new Prompt({
        ns: 'd',
        key: 'k',
        sections: [
          section('outer', {
            children: [
              section('inner', {
                enabled: () => {
                  throw new Error('no flag');
                },
              }),
            ],
          }),
        ],
      });
      const error = catchError(PromptRenderError, () => prompt.render());
      expect(error.message).toContain('Section enabled predicate failed: no flag');
      expect(error.sectionPath).toEqual(['outer', 'inner']);
      expect(error.cause).toBeInstanceOf(Error);
    });

    describe('resolving params', () => {
      const make = (
        extra: Partial<ConstructorParameters<typeof MarkdownSection<LimitParams>>[0]> = {},
      ) =>
        new MarkdownSection<LimitParams>({
          key: 'limits',
          title: 'Limits',
          params: LimitParams,
          template: 'Return at most ${limit} results.',
          ...extra,
        });

      it('should prefer the instance given to render', () => {
        const prompt = new Prompt({
          ns: 'd',
          key: 'k',
          sections: [make({ defaultParams: Object.assign(new LimitParams(), { limit: 5 }) })],
        });
        const rendered = prompt.render({
          params: [Object.assign(new LimitParams(), { limit: 9 })],
        });
        expect(rendered.text).toContain('at most 9 results');
      });

      it("should then use the section's defaultParams, then the first default of that class", () => {
        const first = make({ defaultParams: Object.assign(new LimitParams(), { limit: 5 }) });
        const second = new MarkdownSection({
          key: 'again',
          title: 'Again',
          params: LimitParams,
          template: 'Again ${limit}.',
        });
        const rendered = new Prompt({ ns: 'd', key: 'k', sections: [first, second] }).render();
        expect(rendered.text).toContain('at most 5 results');
        expect(rendered.text).toContain('Again 5.');
      });

      it('should then construct the class and report a missing value', () => {
        const error = catchError(PromptRenderError, () =>
          new Prompt({ ns: 'd', key: 'k', sections: [make()] }).render(),
        );
        expect(error.sectionPath).toEqual(['limits']);
        expect(error.message).toContain(
          '${limit} has no value (LimitParams.limit is null or undefined)',
        );
      });

      it('should report params that cannot be constructed', () => {
        class Strict {
          constructor() {
            throw new Error('needs arguments');
          }
        }
        const strictSection = new MarkdownSection({
          key: 'strict',
          title: 'Strict',
          params: Strict,
        });
        const error = catchError(PromptRenderError, () =>
          new Prompt({ ns: 'd', key: 'k', sections: [strictSection] }).render(),
        );

        expect(error.message).toContain(
          'Missing parameters for section: no Strict was passed to render()',
        );
      });

      it.each([
        [[LimitParams], "params[0] of 'd/k' is the class LimitParams"],
        [[{ limit: 3 }], "params[0] of 'd/k' is a plain object"],
        [
          [new TopicParams()],
          "Unexpected params type supplied to prompt 'd/k': no section uses TopicParams",
        ],
        [
          [new LimitParams(), new LimitParams()],
          "Duplicate params type supplied to prompt 'd/k': two instances of LimitParams",
        ],
      ])('should reject bad params %#', (params, message) => {
        const prompt = new Prompt({ ns: 'd', key: 'k', sections: [make()] });
        const error = catchError(PromptValidationError, () => prompt.render({ params: params }));
        expect(error.message).toContain(message);
      });
    });

    it('should collect tools depth-first in declaration order', () => {
      const prompt = new Prompt({
        ns: 'd',
        key: 'k',
        sections: [
          section('a', {
            tools: [tool('a1'), tool('a2')],
            children: [section('b', { tools: [tool('b1')] })],
          }),
          section('c', { tools: [tool('c1')] }),
        ],
      });
      expect(prompt.render().tools.map((t) => t.name)).toEqual(['a1', 'a2', 'b1', 'c1']);
      expect(prompt.render().tool('b1')?.name).toBe('b1');
    });

    it('should append the tool examples block after the body', () => {
      const search = new ToolDefinition({
        name: 'search',
        description: 'Search the knowledge base.',
        params: SearchParams,
        result: [Hit],
        handler: () => ToolResult.ok([]),
        examples: [
          new ToolExample({
            description: 'Find refund articles',
            input: Object.assign(new SearchParams(), { query: 'refund' }),
            output: [Object.assign(new Hit(), { title: 'Refunds' })],
          }),
        ],
      });
      const prompt = new Prompt({
        ns: 'd',
        key: 'k',
        sections: [section('kb', { tools: [search, tool('plain')] })],
      });
      expect(prompt.render().text).toBe(
        [
          '## 1. KB (kb)',
          '',
          'Body of kb.',
          '',
          'Tools:',
          '- search: Search the knowledge base.',
          '  - search examples:',
          '    - description: Find refund articles',
          '      input:',
          '        ```json',
          '        {"query":"refund"}',
          '        ```',
          '      output:',
          '        ```',
          '        [{"title":"Refunds"}]',
          '        ```',
        ].join('\n'),
      );
    });

    it('should expose the declared output class and container', () => {
      const one = new Prompt({ ns: 'd', key: 'k', sections: [], output: Hit }).render();
      const many = new Prompt({ ns: 'd', key: 'k', sections: [], output: [Hit] }).render();
      const free = new Prompt({ ns: 'd', key: 'k', sections: [] }).render();
      expect([one.outputType, one.outputContainer]).toEqual([Hit, 'object']);
      expect([many.outputType, many.outputContainer]).toEqual([Hit, 'array']);
      expect([free.outputType, free.outputContainer]).toEqual([undefined, undefined]);
    });
  });

  describe('decorated and plain sections', () => {
    @Section({ key: 'kb', title: 'Knowledge base', template: 'Search before answering.' })
    class KnowledgeBaseSection {
      @Tool({ name: 'search', description: 'Search the knowledge base.', readOnly: true })
      search(_params: SearchParams, _context: ToolContext): ToolResult<null> {
        return ToolResult.ok(null);
      }
    }

    it('should render and expose tools identically', () => {
      const plain = new MarkdownSection({
        key: 'kb',
        title: 'Knowledge base',
        template: 'Search before answering.',
        tools: [
          new ToolDefinition({
            name: 'search',
            description: 'Search the knowledge base.',
            params: SearchParams,
            readOnly: true,
            handler: () => ToolResult.ok(null),
          }),
        ],
      });
      const decorated = new Prompt({
        ns: 'd',
        key: 'k',
        sections: [KnowledgeBaseSection],
      }).render();
      const built = new Prompt({ ns: 'd', key: 'k', sections: [plain] }).render();
      expect(decorated.text).toBe(built.text);
      const describeTool = (t: ToolDefinition) => [
        t.name,
        t.description,
        t.paramsType,
        t.readOnly,
        t.acceptsOverrides,
        t.native,
      ];
      expect(decorated.tools.map(describeTool)).toEqual(built.tools.map(describeTool));
    });
  });

  describe('with overrides', () => {
    const prompt = new Prompt({
      ns: 'demo',
      key: 'ov',
      sections: [
        section('open', { tools: [tool('search', { params: SearchParams })] }),
        section('fixed', {
          acceptsOverrides: false,
          tools: [tool('locked', { acceptsOverrides: false })],
        }),
      ],
    });
    const base: PromptOverride = { ns: 'demo', key: 'ov', tag: 'latest', sections: [], tools: [] };
    const descriptor = describePrompt(prompt);
    const sectionHash =
      descriptor.sections.find((s) => s.path.join('.') === 'open')?.contentHash ?? '';
    const searchHash = descriptor.tools.find((t) => t.name === 'search')?.contractHash ?? '';

    it('should replace an overridable section body and tool texts', () => {
      const rendered = prompt.render({
        overrides: {
          ...base,
          sections: [{ path: ['open'], expectedHash: sectionHash, body: 'New body.' }],
          tools: [
            {
              name: 'search',
              expectedContractHash: searchHash,
              description: 'Find articles.',
              paramDescriptions: { query: 'Words to look for' },
            },
          ],
        },
      });
      expect(rendered.text).toContain('## 1. OPEN (open)\n\nNew body.');
      expect(rendered.tool('search')?.description).toBe('Find articles.');
      expect(rendered.toolParamDescriptions.get('search')?.get('query')).toBe('Words to look for');
      expect(prompt.render().tool('search')?.description).toBe('The search tool.');
    });

    it('should refuse overrides for items that do not accept them or do not exist', () => {
      expect(() =>
        prompt.render({
          overrides: { ...base, sections: [{ path: ['fixed'], expectedHash: 'h', body: 'x' }] },
        }),
      ).toThrow("section 'fixed': the section does not accept overrides");
      expect(() =>
        prompt.render({
          overrides: {
            ...base,
            tools: [{ name: 'locked', expectedContractHash: 'h', description: 'x' }],
          },
        }),
      ).toThrow("tool 'locked': the tool does not accept overrides");
      const error = catchError(PromptOverridesError, () =>
        prompt.render({
          overrides: { ...base, tools: [{ name: 'nope', expectedContractHash: 'h' }] },
        }),
      );
      expect(error.message).toContain(
        "tool 'nope': the prompt has no tool with this name (tools: search, locked)",
      );
    });

    it('should refuse overrides meant for another prompt', () => {
      expect(() => prompt.render({ overrides: { ...base, key: 'other' } })).toThrow(
        "Overrides for prompt 'demo/other' were given to prompt 'demo/ov'.",
      );
    });
  });
});
