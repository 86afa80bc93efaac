import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { IsString } from 'class-validator';

import { Describe } from '../../src/decorators/describe.js';
import { PromptOverridesError } from '../../src/core/errors/prompt-overrides-error.js';
import { JsonFilePromptOverridesStore } from '../../src/prompt/overrides/json-file-overrides-store.js';
import { describePrompt, toolContractHash } from '../../src/prompt/overrides/prompt-descriptor.js';
import { MarkdownSection } from '../../src/prompt/markdown-section.js';
import { Prompt } from '../../src/prompt/prompt.js';
import { ToolDefinition } from '../../src/tools/tool-definition.js';
import { ToolResult } from '../../src/tools/tool-result.js';

class SearchParams {
  @Describe('Words to look for') @IsString() query!: string;
}
class OtherParams {
  @IsString() text!: string;
}

function buildPrompt(
  options: { template?: string; description?: string; params?: typeof SearchParams } = {},
) {
  const search = new ToolDefinition({
    name: 'search',
    description: options.description ?? 'Search the knowledge base.',
    params: options.params ?? SearchParams,
    handler: () => ToolResult.ok(null),
  });
  const locked = new ToolDefinition({
    name: 'locked',
    description: 'Not overridable.',
    acceptsOverrides: false,
    handler: () => ToolResult.ok(null),
  });
  return new Prompt({
    ns: 'support/desk',
    key: 'triage',
    sections: [
      new MarkdownSection({
        key: 'guide',
        title: 'Guide',
        template: options.template ?? 'Be brief.',
        tools: [search],
      }),
      new MarkdownSection({
        key: 'fixed',
        title: 'Fixed',
        template: 'Frozen.',
        acceptsOverrides: false,
        tools: [locked],
      }),
    ],
  });
}

describe('JsonFilePromptOverridesStore', () => {
  let root: string;
  let store: JsonFilePromptOverridesStore;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'affordance-overrides-'));
    store = new JsonFilePromptOverridesStore({ root });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('should seed a file with the current bodies and descriptions of overridable items only', async () => {
    const prompt = buildPrompt();
    const seeded = await store.seed(prompt);
    expect(seeded.sections.map((s) => [s.path.join('.'), s.body])).toEqual([
      ['guide', 'Be brief.'],
    ]);
    expect(seeded.tools.map((t) => [t.name, t.description])).toEqual([
      ['search', 'Search the knowledge base.'],
    ]);
    const file = join(root, 'support', 'desk', 'triage', 'latest.json');
    const onDisk = JSON.parse(await readFile(file, 'utf8')) as { version: number };
    expect(onDisk.version).toBe(1);
    expect(store.fileFor('support/desk', 'triage')).toBe(file);
  });

  it('should resolve an edited override and render it', async () => {
    const prompt = buildPrompt();
    const seeded = await store.seed(prompt);
    await store.upsert(prompt, {
      ...seeded,
      sections: seeded.sections.map((s) => ({ ...s, body: 'Answer in one line.' })),
      tools: seeded.tools.map((t) => ({
        ...t,
        description: 'Find articles.',
        paramDescriptions: { query: 'Search terms' },
      })),
    });
    const { override, skipped } = await store.resolve(prompt);
    expect(skipped).toEqual([]);
    const rendered = prompt.render({ overrides: override });
    expect(rendered.text).toContain('## 1. Guide (guide)\n\nAnswer in one line.');
    expect(rendered.tool('search')?.description).toBe('Find articles.');
    expect(rendered.toolParamDescriptions.get('search')?.get('query')).toBe('Search terms');
  });

  it('should skip and report entries whose section template or tool contract changed', async () => {
    const original = buildPrompt();
    await store.seed(original);
    const changed = buildPrompt({
      template: 'Be very brief.',
      params: OtherParams as unknown as typeof SearchParams,
    });
    const { override, skipped } = await store.resolve(changed);
    expect(override?.sections).toEqual([]);
    expect(override?.tools).toEqual([]);
    expect(skipped.map((s) => [s.kind, s.target])).toEqual([
      ['section', 'guide'],
      ['tool', 'search'],
    ]);
    expect(skipped[0]?.reason).toContain('hash mismatch');
  });

  it('should throw on stale entries in strict mode', async () => {
    await store.seed(buildPrompt());
    const strict = new JsonFilePromptOverridesStore({ root, strict: true });
    await expect(
      strict.resolve(buildPrompt({ description: 'Search everything.' })),
    ).rejects.toThrow("stale override entries: tool 'search'");
  });

  it('should refuse to store entries for items that do not accept overrides', async () => {
    const prompt = buildPrompt();
    const descriptor = describePrompt(prompt);
    await expect(
      store.upsert(prompt, {
        ns: prompt.ns,
        key: prompt.key,
        tag: 'latest',
        sections: [
          { path: ['fixed'], expectedHash: descriptor.sections[0]?.contentHash ?? '', body: 'x' },
        ],
        tools: [],
      }),
    ).rejects.toThrow("section 'fixed': the section does not accept overrides");
  });

  it('should report a malformed file with its location', async () => {
    const prompt = buildPrompt();
    const file = store.fileFor(prompt.ns, prompt.key);
    await store.seed(prompt);
    await writeFile(
      file,
      '{"version":1,"ns":"support/desk","key":"triage","tag":"latest","sections":[{"path":"guide"}]}',
    );
    const error = await store.resolve(prompt).catch((e: unknown) => e);
    expect(PromptOverridesError.is(error)).toBe(true);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain('sections[0] needs "path"');
    await writeFile(file, 'not json');
    await expect(store.resolve(prompt)).rejects.toThrow('the file is not valid JSON');
  });

  it('should reject namespace segments that would leave the root', () => {
    expect(() => store.fileFor('../escape', 'k')).toThrow(
      "'..' cannot be part of an override file path",
    );
    expect(() => store.fileFor('a', 'k', '../../x')).toThrow(
      'cannot be part of an override file path',
    );
  });

  it('should delete a stored override and say whether one existed', async () => {
    const prompt = buildPrompt();
    await store.seed(prompt);
    expect(await store.delete(prompt.ns, prompt.key)).toBe(true);
    expect(await store.delete(prompt.ns, prompt.key)).toBe(false);
    expect((await store.resolve(prompt)).override).toBeUndefined();
  });

  it('should serialise concurrent writes to one file', async () => {
    const prompt = buildPrompt();
    const seeded = await store.seed(prompt);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.upsert(prompt, {
          ...seeded,
          sections: seeded.sections.map((s) => ({ ...s, body: `Body ${i}.` })),
        }),
      ),
    );
    const { override } = await store.resolve(prompt);
    expect(override?.sections[0]?.body).toBe('Body 19.');
  });
});

describe('toolContractHash', () => {
  it('should change with the description, the params schema or the result', () => {
    const make = (description: string, params?: typeof SearchParams) =>
      new ToolDefinition({ name: 't', description, params, handler: () => ToolResult.ok(null) });
    const base = toolContractHash(make('Search.', SearchParams));
    expect(toolContractHash(make('Search.', SearchParams))).toBe(base);
    expect(toolContractHash(make('Search more.', SearchParams))).not.toBe(base);
    expect(
      toolContractHash(make('Search.', OtherParams as unknown as typeof SearchParams)),
    ).not.toBe(base);
    expect(toolContractHash(make('Search.'))).not.toBe(base);
  });
});

describe('Prompt.render with overrides', () => {
  it('should refuse an override whose hash does not match instead of applying it', () => {
    const prompt = buildPrompt();
    expect(() =>
      prompt.render({
        overrides: {
          ns: prompt.ns,
          key: prompt.key,
          tag: 'latest',
          sections: [{ path: ['guide'], expectedHash: 'stale', body: 'x' }],
          tools: [],
        },
      }),
    ).toThrow("1 override entry does not apply to prompt 'support/desk/triage': section 'guide'");
  });
});
