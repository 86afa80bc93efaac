import type { Container } from 'inversify';

import {
  describePrompt,
  type FileRead,
  Filesystem,
  InMemoryFilesystem,
  type InMemoryFilesystemOptions,
  Prompt,
  ResourceRegistry,
  type ToolCallOutcome,
} from 'affordance';
import { toJsonSchema } from 'affordance/provider';
import type { ScriptedToolCall } from 'affordance/testing';
import {
  FilesystemToolsLimits,
  FilesystemToolsSection,
  FsEditParams,
  FsGlobParams,
  FsGrepParams,
  FsListParams,
  FsReadParams,
  FsRemoveParams,
  FsWriteParams,
  NO_FILESYSTEM_MESSAGE,
} from 'affordance/filesystem';

import { runToolCalls, type ToolCallsRun } from '../support/run-tool-calls.js';

const prompt = new Prompt({ ns: 'tests', key: 'files', sections: [FilesystemToolsSection] });

interface Workspace {
  readonly filesystem: Filesystem;
  run(
    calls: readonly ScriptedToolCall[],
    limits?: Partial<FilesystemToolsLimits>,
  ): Promise<ToolCallsRun>;
}

function workspace(
  files: Readonly<Record<string, string>>,
  options: Omit<InMemoryFilesystemOptions, 'files'> = {},
  filesystem: Filesystem = new InMemoryFilesystem({ ...options, files }),
): Workspace {
  const resources = new ResourceRegistry().bind(Filesystem, { create: () => filesystem });
  return {
    filesystem,
    run: (calls, limits) =>
      runToolCalls(
        prompt,
        calls.map((call) => [call]),
        {
          resources,
          ...(limits === undefined
            ? {}
            : {
                configure: (container: Container) =>
                  container
                    .bind(FilesystemToolsLimits)
                    .toConstantValue(Object.assign(new FilesystemToolsLimits(), limits)),
              }),
        },
      ),
  };
}

function only(result: ToolCallsRun): ToolCallOutcome {
  expect(result.outcomes).toHaveLength(1);
  return result.outcomes[0] as ToolCallOutcome;
}

const call = (name: string, args: object = {}): ScriptedToolCall => ({ name, arguments: args });

const notes = 'alpha\nbeta\ngamma\n';

describe(FilesystemToolsSection, () => {
  describe('the prompt', () => {
    it('should contribute seven tools, the four that only read marked read-only', () => {
      expect(prompt.allTools.map((tool) => [tool.name, tool.readOnly])).toEqual([
        ['fs_list', true],
        ['fs_read', true],
        ['fs_write', false],
        ['fs_edit', false],
        ['fs_glob', true],
        ['fs_grep', true],
        ['fs_remove', false],
      ]);
    });

    it('should accept no overrides', () => {
      expect(describePrompt(prompt)).toMatchObject({ sections: [], tools: [] });
    });

    it.each([
      FsListParams,
      FsReadParams,
      FsWriteParams,
      FsEditParams,
      FsGlobParams,
      FsGrepParams,
      FsRemoveParams,
    ])(
      'should give %p a schema OpenAI strict mode accepts, leaving nothing unexpressed',
      (Params) => {
        expect(toJsonSchema(Params, 'openai-strict')).toMatchObject({
          strictCompatible: true,
          unexpressed: [],
          strictBlockers: [],
        });
      },
    );

    it('should tell the model about line numbers, all-or-none edits and the truncation note', () => {
      const text = prompt.render().text;
      expect(text).toContain('## 1. Filesystem Tools (filesystem.tools)');
      expect(text).toContain('without the line-number prefix');
      expect(text).toContain('all or none');
      expect(text).toContain('"[truncated: N more lines]"');
    });
  });

  describe('without a filesystem', () => {
    it('should tell the model that no filesystem is bound', async () => {
      const result = await runToolCalls(prompt, [[call('fs_read', { path: 'a.md' })]]);
      expect(only(result).message).toBe(NO_FILESYSTEM_MESSAGE);
      expect(NO_FILESYSTEM_MESSAGE).toMatch(
        /^No filesystem is bound: pass resources with a Filesystem/,
      );
      expect(only(result).result.success).toBe(false);
    });
  });

  describe('fs_list', () => {
    it('should list the root by default: directories with a slash and entry count, files with their size', async () => {
      const ws = workspace({ 'b.md': 'hello', 'src/x.ts': '', 'src/y.ts': '' });
      expect(only(await ws.run([call('fs_list')])).message).toBe(
        "Directory '.' has 2 entries.\n\nb.md (5 bytes)\nsrc/ (2 entries)",
      );
    });

    it('should list a subdirectory and say when it is empty', async () => {
      const ws = workspace({ 'src/x.ts': 'x' });
      await ws.filesystem.mkdir('empty');
      const result = await ws.run([
        call('fs_list', { path: 'src' }),
        call('fs_list', { path: 'empty' }),
      ]);
      expect(result.outcomes.map((outcome) => outcome.message)).toEqual([
        "Directory 'src' has 1 entry.\n\nx.ts (1 byte)",
        "Directory 'empty' is empty.",
      ]);
    });

    it('should cap the listing with a truncation note', async () => {
      const files = Object.fromEntries(
        Array.from({ length: 5 }, (_, i) => [`f${i}.txt`, ''] as const),
      );
      const result = await workspace(files).run([call('fs_list')], { maxListEntries: 2 });
      expect(only(result).message).toBe(
        "Directory '.' has 5 entries.\n\nf0.txt (0 bytes)\nf1.txt (0 bytes)\n[truncated: 3 more lines]",
      );
    });

    it('should pass on the filesystem message for a missing directory', async () => {
      const result = await workspace({}).run([call('fs_list', { path: 'nope' })]);
      expect(only(result).message).toMatch(/^list 'nope': no such file or directory/);
      expect(only(result).result.success).toBe(false);
    });
  });

  describe('fs_read', () => {
    it('should number the lines from 1, separated from the text by a tab', async () => {
      const result = await workspace({ 'notes.md': notes }).run([
        call('fs_read', { path: 'notes.md' }),
      ]);
      expect(only(result).message).toBe(
        "Read 'notes.md', lines 1-3 of 3.\n\n1\talpha\n2\tbeta\n3\tgamma",
      );
    });

    it('should read a window and say where to continue, without a truncation note', async () => {
      const result = await workspace({ 'notes.md': notes }).run([
        call('fs_read', { path: 'notes.md', startLine: 2, lineCount: 1 }),
      ]);
      expect(only(result).message).toBe(
        "Read 'notes.md', lines 2-2 of 3. Continue with startLine 3.\n\n2\tbeta",
      );
    });

    it('should cap a read at maxReadLines with a truncation note, right-aligning the numbers', async () => {
      const content = Array.from({ length: 25 }, (_, i) => `line ${i + 1}`).join('\n');
      const ws = workspace({ 'long.txt': content });
      const result = await ws.run([call('fs_read', { path: 'long.txt', startLine: 8 })], {
        maxReadLines: 3,
      });
      expect(only(result).message).toBe(
        "Read 'long.txt', lines 8-10 of 25. Continue with startLine 11.\n\n" +
          ' 8\tline 8\n 9\tline 9\n10\tline 10\n[truncated: 15 more lines]',
      );
    });

    it('should cap a read that asks for more lines than allowed', async () => {
      const result = await workspace({ 'notes.md': notes }).run(
        [call('fs_read', { path: 'notes.md', lineCount: 50 })],
        { maxReadLines: 2 },
      );
      expect(only(result).message).toMatch(/\n2\tbeta\n\[truncated: 1 more line\]$/);
    });

    it('should cut very long lines with a note', async () => {
      const result = await workspace({ 'wide.txt': 'abcdefghij' }).run(
        [call('fs_read', { path: 'wide.txt' })],
        { maxLineLength: 4 },
      );
      expect(only(result).message).toBe(
        "Read 'wide.txt', lines 1-1 of 1.\n\n1\tabcd [line cut: 6 more characters]",
      );
    });

    it('should say when the file is empty, and refuse a start past the end', async () => {
      const result = await workspace({ 'empty.txt': '', 'notes.md': notes }).run([
        call('fs_read', { path: 'empty.txt' }),
        call('fs_read', { path: 'notes.md', startLine: 4 }),
      ]);
      expect(result.outcomes.map((outcome) => [outcome.result.success, outcome.message])).toEqual([
        [true, "File 'empty.txt' is empty."],
        [false, "File 'notes.md' has 3 lines; startLine 4 is past the end."],
      ]);
    });

    it('should reject a start line of 0 through the schema', async () => {
      const result = await workspace({ 'notes.md': notes }).run([
        call('fs_read', { path: 'notes.md', startLine: 0 }),
      ]);
      expect(only(result).message).toMatch(/^Tool validation failed: startLine: /);
    });

    it('should pass on the filesystem message for a missing file or a path outside the root', async () => {
      const result = await workspace({}).run([
        call('fs_read', { path: 'missing.md' }),
        call('fs_read', { path: '../etc/passwd' }),
      ]);
      expect(result.outcomes[0]?.message).toMatch(/^read 'missing.md': no such file or directory/);
      expect(result.outcomes[1]?.message).toMatch(/^read '..\/etc\/passwd': /);
      expect(result.outcomes.every((outcome) => !outcome.result.success)).toBe(true);
    });
  });

  describe('fs_write', () => {
    it('should create, refuse to clobber, overwrite and append', async () => {
      const ws = workspace({});
      const result = await ws.run([
        call('fs_write', { path: 'docs/a.md', content: 'one\n' }),
        call('fs_write', { path: 'docs/a.md', content: 'two\n' }),
        call('fs_write', { path: 'docs/a.md', content: 'three\n', mode: 'overwrite' }),
        call('fs_write', { path: 'docs/a.md', content: 'four\n', mode: 'append' }),
      ]);
      expect(result.outcomes.map((outcome) => outcome.message)).toEqual([
        "Created 'docs/a.md' (4 bytes).",
        expect.stringMatching(/^write 'docs\/a.md': the file already exists/) as string,
        "Replaced 'docs/a.md' (6 bytes).",
        "Appended to 'docs/a.md' (now 11 bytes).",
      ]);
      expect(await ws.filesystem.readText('docs/a.md')).toBe('three\nfour\n');
    });

    it('should reject an unknown mode through the schema', async () => {
      const result = await workspace({}).run([
        call('fs_write', { path: 'a.md', content: '', mode: 'truncate' }),
      ]);
      expect(only(result).message).toMatch(/^Tool validation failed: mode: /);
    });

    it('should pass on a read-only filesystem refusal', async () => {
      const ws = workspace({ 'a.md': 'x' }, { readOnly: true });
      const result = await ws.run([
        call('fs_write', { path: 'a.md', content: 'y', mode: 'overwrite' }),
      ]);
      expect(only(result).result.success).toBe(false);
      expect(only(result).message).toMatch(/^write 'a.md': /);
      expect(await ws.filesystem.readText('a.md')).toBe('x');
    });
  });

  describe('fs_edit', () => {
    it('should replace exact text and report the replacements', async () => {
      const ws = workspace({ 'notes.md': notes });
      const result = await ws.run([
        call('fs_edit', {
          path: 'notes.md',
          edits: [
            { oldText: 'beta', newText: 'BETA' },
            { oldText: 'a\n', newText: 'A\n', replaceAll: true },
          ],
        }),
      ]);
      expect(only(result).message).toBe("Edited 'notes.md': 3 replacements (now 17 bytes).");
      expect(await ws.filesystem.readText('notes.md')).toBe('alphA\nBETA\ngammA\n');
    });

    it('should pass on an ambiguous or missing oldText for a single edit', async () => {
      const ws = workspace({ 'notes.md': notes });
      const result = await ws.run([
        call('fs_edit', { path: 'notes.md', edits: [{ oldText: 'a', newText: 'b' }] }),
        call('fs_edit', { path: 'notes.md', edits: [{ oldText: 'delta', newText: 'd' }] }),
      ]);
      expect(result.outcomes[0]?.message).toMatch(/^edit 'notes.md': oldText occurs 5 times/);
      expect(result.outcomes[1]?.message).toMatch(/^edit 'notes.md': oldText was not found/);
    });

    it('should undo the earlier edits of a call when a later one fails', async () => {
      const ws = workspace({ 'notes.md': notes });
      const result = await ws.run([
        call('fs_edit', {
          path: 'notes.md',
          edits: [
            { oldText: 'alpha', newText: 'ALPHA' },
            { oldText: 'beta', newText: 'BETA' },
            { oldText: 'delta', newText: 'DELTA' },
          ],
        }),
      ]);
      expect(only(result).result.success).toBe(false);
      expect(only(result).message).toBe(
        "Edit 3 of 3 failed: edit 'notes.md': oldText was not found. Read the file and copy the exact text, " +
          'including whitespace and indentation. The file is unchanged: the 2 edits before it were undone.',
      );
      expect(await ws.filesystem.readText('notes.md')).toBe(notes);
    });

    it('should say that earlier edits stay when the filesystem cannot roll back', async () => {
      const inner = new InMemoryFilesystem({ files: { 'notes.md': notes } });
      const plain = new NonSnapshotFilesystem(inner);
      const ws = workspace({}, {}, plain);
      const result = await ws.run([
        call('fs_edit', {
          path: 'notes.md',
          edits: [
            { oldText: 'alpha', newText: 'ALPHA' },
            { oldText: 'delta', newText: 'DELTA' },
          ],
        }),
      ]);
      expect(only(result).message).toMatch(
        /Beware: the edit before it was kept \(this filesystem cannot roll back\)\.$/,
      );
      expect(await inner.readText('notes.md')).toBe('ALPHA\nbeta\ngamma\n');
    });

    it('should require at least one edit', async () => {
      const result = await workspace({ 'notes.md': notes }).run([
        call('fs_edit', { path: 'notes.md', edits: [] }),
      ]);
      expect(only(result).message).toMatch(/^Tool validation failed: edits: /);
    });
  });

  describe('fs_glob', () => {
    it('should list matching paths, sorted', async () => {
      const result = await workspace({
        'src/b.ts': '',
        'src/a.ts': '',
        'src/deep/c.ts': '',
        'r.md': '',
      }).run([
        call('fs_glob', { pattern: '**/*.ts' }),
        call('fs_glob', { pattern: '*.ts', path: 'src' }),
        call('fs_glob', { pattern: '*.py' }),
      ]);
      expect(result.outcomes.map((outcome) => outcome.message)).toEqual([
        "3 files match '**/*.ts'.\n\nsrc/a.ts\nsrc/b.ts\nsrc/deep/c.ts",
        "2 files match '*.ts'.\n\nsrc/a.ts\nsrc/b.ts",
        "No files match '*.py'.",
      ]);
    });

    it('should cap the paths with a truncation note', async () => {
      const result = await workspace({ 'a.ts': '', 'b.ts': '', 'c.ts': '' }).run(
        [call('fs_glob', { pattern: '*.ts' })],
        { maxGlobResults: 1 },
      );
      expect(only(result).message).toBe("3 files match '*.ts'.\n\na.ts\n[truncated: 2 more lines]");
    });
  });

  describe('fs_grep', () => {
    const files = {
      'a.md': 'Alpha\nbeta\n',
      'src/x.ts': 'const alpha = 1;\n',
      'src/y.md': 'alpha\n',
    };

    it('should show path:line: text for each match', async () => {
      const result = await workspace(files).run([
        call('fs_grep', { pattern: 'alpha' }),
        call('fs_grep', { pattern: 'alpha', ignoreCase: true, glob: '**/*.md' }),
        call('fs_grep', { pattern: 'alpha', path: 'src' }),
        call('fs_grep', { pattern: 'omega' }),
      ]);
      expect(result.outcomes.map((outcome) => outcome.message)).toEqual([
        "2 lines match 'alpha'.\n\nsrc/x.ts:1: const alpha = 1;\nsrc/y.md:1: alpha",
        "2 lines match 'alpha'.\n\na.md:1: Alpha\nsrc/y.md:1: alpha",
        "2 lines match 'alpha'.\n\nsrc/x.ts:1: const alpha = 1;\nsrc/y.md:1: alpha",
        "No lines match 'omega'.",
      ]);
    });

    it('should cap the matches with a truncation note', async () => {
      const many = Array.from({ length: 10 }, (_, i) => `hit ${i}`).join('\n');
      const result = await workspace({ 'log.txt': many }).run(
        [call('fs_grep', { pattern: '^hit' })],
        { maxGrepMatches: 4 },
      );
      expect(only(result).message).toBe(
        "10 lines match '^hit'.\n\nlog.txt:1: hit 0\nlog.txt:2: hit 1\nlog.txt:3: hit 2\nlog.txt:4: hit 3\n[truncated: 6 more lines]",
      );
    });

    it('should say when the filesystem stopped the search early', async () => {
      const many = Array.from({ length: 10 }, () => 'hit').join('\n');
      const ws = workspace({ 'log.txt': many }, { limits: { maxGrepMatches: 5 } });
      const result = await ws.run([call('fs_grep', { pattern: 'hit' })], { maxGrepMatches: 2 });
      expect(only(result).message).toMatch(
        /^The first 5 lines match 'hit'; the search stopped there\. Narrow it with path or glob\.\n\n(log\.txt:\d: hit\n){2}\[truncated: 3 more lines\]$/,
      );
    });

    it('should pass on an invalid regular expression', async () => {
      const result = await workspace(files).run([call('fs_grep', { pattern: '(' })]);
      expect(only(result).message).toMatch(
        /^grep '\.': the pattern is not a valid regular expression/,
      );
    });
  });

  describe('fs_remove', () => {
    it('should remove a file, and a directory only with recursive', async () => {
      const ws = workspace({ 'a.md': '', 'src/x.ts': '' });
      const result = await ws.run([
        call('fs_remove', { path: 'a.md' }),
        call('fs_remove', { path: 'src' }),
        call('fs_remove', { path: 'src', recursive: true }),
      ]);
      expect(result.outcomes.map((outcome) => outcome.message)).toEqual([
        "Removed 'a.md'.",
        expect.stringMatching(/^remove 'src': the directory is not empty/) as string,
        "Removed 'src'.",
      ]);
      expect(await ws.filesystem.list()).toEqual([]);
    });
  });

  describe('a scripted editing conversation', () => {
    it('should edit a file, fail an edit, and leave the file as the successful edit left it', async () => {
      const ws = workspace({ 'README.md': '# Demo\n\nStatus: draft\n' });
      const result = await ws.run([
        call('fs_read', { path: 'README.md' }),
        call('fs_edit', { path: 'README.md', edits: [{ oldText: 'draft', newText: 'review' }] }),
        call('fs_edit', {
          path: 'README.md',
          edits: [
            { oldText: '# Demo', newText: '# Demo app' },
            { oldText: 'Status: draft', newText: 'Status: final' },
          ],
        }),
        call('fs_read', { path: 'README.md' }),
      ]);
      expect(result.outcomes.map((outcome) => [outcome.call.name, outcome.result.success])).toEqual(
        [
          ['fs_read', true],
          ['fs_edit', true],
          ['fs_edit', false],
          ['fs_read', true],
        ],
      );
      expect(result.outcomes[2]?.message).toMatch(
        /^Edit 2 of 2 failed: edit 'README.md': oldText was not found\..* The file is unchanged: the edit before it was undone\.$/,
      );
      expect(await ws.filesystem.readText('README.md')).toBe('# Demo\n\nStatus: review\n');
      expect(result.outcomes[3]?.message).toBe(
        "Read 'README.md', lines 1-3 of 3.\n\n1\t# Demo\n2\t\n3\tStatus: review",
      );
    });
  });
});

/** A filesystem without snapshot/restore, so the runtime cannot roll it back. */
class NonSnapshotFilesystem implements Filesystem {
  constructor(private readonly inner: InMemoryFilesystem) {}
  get root(): string {
    return this.inner.root;
  }
  get readOnly(): boolean {
    return this.inner.readOnly;
  }
  read(path: string, options?: { offset?: number; limit?: number }): Promise<FileRead> {
    return this.inner.read(path, options);
  }
  readText = (path: string) => this.inner.readText(path);
  exists = (path: string) => this.inner.exists(path);
  stat = (path: string) => this.inner.stat(path);
  list = (path?: string) => this.inner.list(path);
  glob: Filesystem['glob'] = (pattern, options) => this.inner.glob(pattern, options);
  grep: Filesystem['grep'] = (pattern, options) => this.inner.grep(pattern, options);
  write: Filesystem['write'] = (path, content, options) => this.inner.write(path, content, options);
  edit: Filesystem['edit'] = (path, oldText, newText, options) =>
    this.inner.edit(path, oldText, newText, options);
  remove: Filesystem['remove'] = (path, options) => this.inner.remove(path, options);
  mkdir = (path: string) => this.inner.mkdir(path);
}
