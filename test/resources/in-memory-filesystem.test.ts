import fc from 'fast-check';

import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import {
  FilesystemError,
  type FilesystemErrorReason,
} from '../../src/core/errors/filesystem-error.js';
import { InMemoryFilesystem } from '../../src/resources/in-memory-filesystem.js';

async function failure(promise: Promise<unknown>): Promise<FilesystemError> {
  try {
    await promise;
  } catch (error) {
    if (FilesystemError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the operation to fail');
}

async function reasonOf(promise: Promise<unknown>): Promise<FilesystemErrorReason> {
  return (await failure(promise)).reason;
}

describe(InMemoryFilesystem, () => {
  describe('paths', () => {
    it('should normalise ., .. and repeated slashes', async () => {
      const fs = new InMemoryFilesystem();
      const result = await fs.write('./src//lib/../main.ts', 'x');
      expect(result.path).toBe('src/main.ts');
      expect(await fs.readText('src/main.ts')).toBe('x');
    });

    it('should reject ../ escapes from the root with a clear error', async () => {
      const fs = new InMemoryFilesystem({ root: '/workspace' });
      const error = await failure(fs.readText('../etc/passwd'));
      expect(error.reason).toBe('outside_root');
      expect(error.operation).toBe('read');
      expect(error.path).toBe('../etc/passwd');
      expect(error.code).toBe('filesystem');
      expect(error.message).toBe(
        "read '../etc/passwd': the path escapes the root '/workspace' through '..'. Use a path inside the root.",
      );
      expect(await reasonOf(fs.write('src/../../x', 'x'))).toBe('outside_root');
      expect(await reasonOf(fs.list('a/b/../../..'))).toBe('outside_root');
    });

    it('should accept absolute paths inside the root and reject those outside', async () => {
      const fs = new InMemoryFilesystem({ root: '/workspace' });
      await fs.write('/workspace/notes.md', 'n');
      expect(await fs.readText('notes.md')).toBe('n');
      expect(await reasonOf(fs.readText('/etc/passwd'))).toBe('outside_root');
      expect(await reasonOf(fs.readText('/workspace-other/x'))).toBe('outside_root');
    });

    it('should reject NUL bytes and other control characters', async () => {
      const fs = new InMemoryFilesystem();
      const error = await failure(fs.write('notes.md\u0000.txt', 'x'));
      expect(error.reason).toBe('invalid_path');
      expect(error.message).toContain('NUL or other control character');
      expect(await reasonOf(fs.readText('a\nb'))).toBe('invalid_path');
    });

    it('should never resolve a path outside the root, whatever the segments', async () => {
      const segment = fc.constantFrom('..', '.', '', 'a', 'b', 'c');
      await fc.assert(
        fc.asyncProperty(fc.array(segment, { maxLength: 12 }), async (segments) => {
          const fs = new InMemoryFilesystem({ root: '/root' });
          const path = ['.', ...segments, 'f.txt'].join('/');
          let depth = 0;
          let escapes = false;
          for (const s of segments) {
            if (s === '..') depth--;
            else if (s !== '.' && s !== '') depth++;
            if (depth < 0) escapes = true;
          }
          try {
            const written = await fs.write(path, 'x', { mode: 'overwrite' });
            expect(escapes).toBe(false);
            expect(written.path.split('/')).not.toContain('..');
            expect(written.path.split('/')).not.toContain('.');
          } catch (error) {
            expect(FilesystemError.is(error)).toBe(true);
            expect((error as FilesystemError).reason).toBe('outside_root');
            expect(escapes).toBe(true);
          }
        }),
      );
    });

    it('should reject a root that is not an absolute normalised path', () => {
      expect(() => new InMemoryFilesystem({ root: 'workspace' })).toThrow(ConfigurationError);
      expect(() => new InMemoryFilesystem({ root: '/a/../b' })).toThrow(ConfigurationError);
    });
  });

  describe('.read', () => {
    const fs = new InMemoryFilesystem({
      files: { 'log.txt': 'one\ntwo\nthree\nfour\n', 'empty.txt': '' },
    });

    it('should return a window of lines with where to continue', async () => {
      expect(await fs.read('log.txt', { offset: 1, limit: 2 })).toEqual({
        path: 'log.txt',
        content: 'two\nthree',
        offset: 1,
        lineCount: 2,
        totalLines: 4,
        nextOffset: 3,
      });
    });

    it('should keep the final newline when the window reaches the end', async () => {
      const read = await fs.read('log.txt');
      expect(read.content).toBe('one\ntwo\nthree\nfour\n');
      expect(read.nextOffset).toBeUndefined();
      expect((await fs.read('log.txt', { offset: 3, limit: Infinity })).content).toBe('four\n');
    });

    it('should read an empty file and an offset past the end as no lines', async () => {
      expect((await fs.read('empty.txt')).totalLines).toBe(0);
      expect((await fs.read('log.txt', { offset: 10 })).content).toBe('');
    });

    it('should default to the configured number of lines', async () => {
      const small = new InMemoryFilesystem({
        limits: { defaultReadLines: 2 },
        files: { 'a.txt': 'a\nb\nc' },
      });
      const read = await small.read('a.txt');
      expect(read.content).toBe('a\nb');
      expect(read.nextOffset).toBe(2);
    });

    it('should reject bad windows, missing files and directories', async () => {
      expect(await reasonOf(fs.read('log.txt', { offset: -1 }))).toBe('invalid_argument');
      expect(await reasonOf(fs.read('log.txt', { limit: 0 }))).toBe('invalid_argument');
      expect(await reasonOf(fs.read('missing.txt'))).toBe('not_found');
      expect(await reasonOf(fs.read('.'))).toBe('not_a_file');
    });
  });

  describe('.write', () => {
    it('should create by default and refuse to replace an existing file', async () => {
      const fs = new InMemoryFilesystem();
      expect(await fs.write('a.txt', 'héllo')).toEqual({ path: 'a.txt', created: true, size: 6 });
      const error = await failure(fs.write('a.txt', 'again'));
      expect(error.reason).toBe('already_exists');
      expect(error.message).toContain("Use mode 'overwrite' to replace it or 'append'");
    });

    it('should overwrite and append', async () => {
      const fs = new InMemoryFilesystem({ files: { 'a.txt': 'one\n' } });
      await fs.write('a.txt', 'two\n', { mode: 'append' });
      expect(await fs.readText('a.txt')).toBe('one\ntwo\n');
      expect(await fs.write('a.txt', 'new', { mode: 'overwrite' })).toMatchObject({
        created: false,
      });
      expect(await fs.readText('a.txt')).toBe('new');
      await fs.write('fresh.txt', 'x', { mode: 'append' });
      expect(await fs.readText('fresh.txt')).toBe('x');
    });

    it('should create parent directories unless told not to', async () => {
      const fs = new InMemoryFilesystem();
      await fs.write('a/b/c.txt', 'x');
      expect((await fs.stat('a/b')).kind).toBe('directory');
      expect(await reasonOf(fs.write('x/y.txt', 'x', { createParents: false }))).toBe('not_found');
    });

    it('should refuse to write through a file or onto a directory', async () => {
      const fs = new InMemoryFilesystem({ files: { 'a.txt': 'x', 'dir/b.txt': 'y' } });
      expect(await reasonOf(fs.write('a.txt/b.txt', 'x'))).toBe('not_a_directory');
      expect(await reasonOf(fs.write('dir', 'x', { mode: 'overwrite' }))).toBe('not_a_file');
      expect(await reasonOf(fs.write('.', 'x'))).toBe('not_a_file');
    });

    it('should reject text that is not valid UTF-8 and content that is not a string', async () => {
      const fs = new InMemoryFilesystem();
      expect(await reasonOf(fs.write('a.txt', 'bad \uD800 surrogate'))).toBe('invalid_text');
      expect(await reasonOf(fs.write('a.txt', 42 as never))).toBe('invalid_text');
      await fs.write('emoji.txt', 'ok 😀');
      expect((await fs.stat('emoji.txt')).size).toBe(7);
    });

    it('should refuse everything on a read-only filesystem, which can still be seeded', async () => {
      const fs = new InMemoryFilesystem({ readOnly: true, files: { 'a.txt': 'x' } });
      expect(await fs.readText('a.txt')).toBe('x');
      expect(await reasonOf(fs.write('b.txt', 'x'))).toBe('read_only');
      expect(await reasonOf(fs.edit('a.txt', 'x', 'y'))).toBe('read_only');
      expect(await reasonOf(fs.remove('a.txt'))).toBe('read_only');
      expect(await reasonOf(fs.mkdir('d'))).toBe('read_only');
    });
  });

  describe('limits', () => {
    it('should cap the size of a file, counted in UTF-8 bytes', async () => {
      const fs = new InMemoryFilesystem({ limits: { maxFileBytes: 4 } });
      await fs.write('ok.txt', 'éé');
      const error = await failure(fs.write('big.txt', 'ééé'));
      expect(error.reason).toBe('limit_exceeded');
      expect(error.message).toBe(
        "write 'big.txt': the file would be 6 bytes; the limit is 4. Split the content across several files.",
      );
      expect(await reasonOf(fs.write('ok.txt', 'abc', { mode: 'append' }))).toBe('limit_exceeded');
      expect(await fs.readText('ok.txt')).toBe('éé');
    });

    it('should cap the total size and the number of files', async () => {
      const fs = new InMemoryFilesystem({ limits: { maxTotalBytes: 5, maxFiles: 2 } });
      await fs.write('a.txt', 'abc');
      expect(await reasonOf(fs.write('b.txt', 'abc'))).toBe('limit_exceeded');
      await fs.write('b.txt', 'ab');
      expect(await reasonOf(fs.write('c.txt', ''))).toBe('limit_exceeded');
      await fs.write('a.txt', 'a', { mode: 'overwrite' });
      expect(fs.totalBytes).toBe(3);
      expect(fs.fileCount).toBe(2);
    });

    it('should cap path depth and name length', async () => {
      const fs = new InMemoryFilesystem({ limits: { maxPathDepth: 3, maxSegmentLength: 5 } });
      await fs.write('a/b/c', 'x');
      expect((await failure(fs.write('a/b/c/d', 'x'))).message).toContain(
        'the path is 4 levels deep; the limit is 3',
      );
      expect(await reasonOf(fs.write('toolong.txt', 'x'))).toBe('limit_exceeded');
    });

    it('should reject limits that are not positive integers', () => {
      expect(() => new InMemoryFilesystem({ limits: { maxFiles: 0 } })).toThrow(
        /limits.maxFiles: must be a positive integer/,
      );
    });
  });

  describe('.edit', () => {
    it('should replace a unique occurrence exactly, without regex or $ substitutions', async () => {
      const fs = new InMemoryFilesystem({
        files: { 'a.ts': 'const price = 1;\nconst tax = 2;\n' },
      });
      const result = await fs.edit('a.ts', 'price = 1', 'price = "$&$1"');
      expect(result).toEqual({ path: 'a.ts', replacements: 1, size: 37 });
      expect(await fs.readText('a.ts')).toBe('const price = "$&$1";\nconst tax = 2;\n');
    });

    it('should refuse an ambiguous match unless replaceAll is set', async () => {
      const fs = new InMemoryFilesystem({ files: { 'a.txt': 'x y x y x' } });
      const error = await failure(fs.edit('a.txt', 'x', 'z'));
      expect(error.reason).toBe('ambiguous_match');
      expect(error.message).toContain('occurs 3 times');
      expect((await fs.edit('a.txt', 'x', 'z', { replaceAll: true })).replacements).toBe(3);
      expect(await fs.readText('a.txt')).toBe('z y z y z');
    });

    it('should explain a missing match, an empty search and a no-op edit', async () => {
      const fs = new InMemoryFilesystem({ files: { 'a.txt': 'abc' } });
      expect((await failure(fs.edit('a.txt', 'zzz', 'y'))).message).toContain(
        'copy the exact text, including whitespace',
      );
      expect(await reasonOf(fs.edit('a.txt', '', 'y'))).toBe('invalid_argument');
      expect(await reasonOf(fs.edit('a.txt', 'abc', 'abc'))).toBe('invalid_argument');
      expect(await reasonOf(fs.edit('nope.txt', 'a', 'b'))).toBe('not_found');
    });
  });

  describe('.list', () => {
    it('should list a directory sorted by name with kinds and sizes', async () => {
      const fs = new InMemoryFilesystem({
        files: { 'b.txt': 'bb', 'a/x.txt': 'x', 'a/y.txt': 'y', 'c.txt': '' },
      });
      expect(await fs.list()).toEqual([
        { path: 'a', name: 'a', kind: 'directory', size: 2 },
        { path: 'b.txt', name: 'b.txt', kind: 'file', size: 2 },
        { path: 'c.txt', name: 'c.txt', kind: 'file', size: 0 },
      ]);
      expect((await fs.list('a')).map((entry) => entry.path)).toEqual(['a/x.txt', 'a/y.txt']);
    });

    it('should refuse to list a file or a missing directory', async () => {
      const fs = new InMemoryFilesystem({ files: { 'a.txt': 'x' } });
      expect(await reasonOf(fs.list('a.txt'))).toBe('not_a_directory');
      expect(await reasonOf(fs.list('missing'))).toBe('not_found');
    });
  });

  describe('.glob', () => {
    const fs = new InMemoryFilesystem({
      files: {
        'README.md': '',
        'src/index.ts': '',
        'src/lib/util.ts': '',
        'src/lib/util.test.ts': '',
        'src/lib/deep/x.js': '',
        'docs/guide.md': '',
      },
    });

    it('should match within a segment with * and across segments with **', async () => {
      expect(await fs.glob('*.md')).toEqual(['README.md']);
      expect(await fs.glob('src/*.ts')).toEqual(['src/index.ts']);
      expect(await fs.glob('**/*.ts')).toEqual([
        'src/index.ts',
        'src/lib/util.test.ts',
        'src/lib/util.ts',
      ]);
      expect(await fs.glob('src/**')).toEqual([
        'src/index.ts',
        'src/lib/deep/x.js',
        'src/lib/util.test.ts',
        'src/lib/util.ts',
      ]);
    });

    it('should support ?, character classes and alternatives', async () => {
      expect(await fs.glob('**/*.{md,js}')).toEqual([
        'README.md',
        'docs/guide.md',
        'src/lib/deep/x.js',
      ]);
      expect(await fs.glob('src/lib/util.[t]s')).toEqual(['src/lib/util.ts']);
      expect(await fs.glob('docs/guid?.md')).toEqual(['docs/guide.md']);
    });

    it('should match relative to a directory and return root-relative paths', async () => {
      expect(await fs.glob('*.ts', { path: 'src/lib' })).toEqual([
        'src/lib/util.test.ts',
        'src/lib/util.ts',
      ]);
    });

    it('should reject patterns that climb out or are malformed', async () => {
      expect(await reasonOf(fs.glob('../*'))).toBe('outside_root');
      expect(await reasonOf(fs.glob('/etc/*'))).toBe('outside_root');
      expect(await reasonOf(fs.glob('src/{a,b'))).toBe('invalid_argument');
    });
  });

  describe('.grep', () => {
    const fs = new InMemoryFilesystem({
      files: {
        'b.ts': 'const a = 1;\n// TODO: b\n',
        'a.ts': '// todo lower\n// TODO: a\n',
        'notes.md': 'TODO: write docs\n',
      },
    });

    it('should return matching lines sorted by path and line', async () => {
      expect(await fs.grep('TODO')).toEqual({
        matches: [
          { path: 'a.ts', line: 2, text: '// TODO: a' },
          { path: 'b.ts', line: 2, text: '// TODO: b' },
          { path: 'notes.md', line: 1, text: 'TODO: write docs' },
        ],
        truncated: false,
      });
    });

    it('should filter by glob, ignore case and stop at maxMatches', async () => {
      const result = await fs.grep('todo', { glob: '*.ts', ignoreCase: true, maxMatches: 2 });
      expect(result.matches.map((m) => `${m.path}:${m.line}`)).toEqual(['a.ts:1', 'a.ts:2']);
      expect(result.truncated).toBe(true);
    });

    it('should accept a RegExp and search a single file', async () => {
      const result = await fs.grep(/^const/g, { path: 'b.ts' });
      expect(result.matches).toEqual([{ path: 'b.ts', line: 1, text: 'const a = 1;' }]);
    });

    it('should explain an invalid regular expression', async () => {
      const error = await failure(fs.grep('foo('));
      expect(error.reason).toBe('invalid_argument');
      expect(error.message).toContain('not a valid regular expression');
    });
  });

  describe('.remove', () => {
    it('should remove files, and non-empty directories only when recursive', async () => {
      const fs = new InMemoryFilesystem({
        files: { 'a.txt': 'abc', 'd/x.txt': 'xy', 'd/e/y.txt': 'y' },
      });
      await fs.remove('a.txt');
      expect(await fs.exists('a.txt')).toBe(false);
      expect(await reasonOf(fs.remove('d'))).toBe('directory_not_empty');
      await fs.remove('d', { recursive: true });
      expect(await fs.list()).toEqual([]);
      expect(fs.fileCount).toBe(0);
      expect(fs.totalBytes).toBe(0);
    });

    it('should refuse to remove the root or a missing path', async () => {
      const fs = new InMemoryFilesystem();
      expect(await reasonOf(fs.remove('.'))).toBe('invalid_path');
      expect(await reasonOf(fs.remove('missing'))).toBe('not_found');
    });
  });

  describe('.mkdir', () => {
    it('should create directories with their parents and tolerate existing ones', async () => {
      const fs = new InMemoryFilesystem({ files: { 'f.txt': '' } });
      await fs.mkdir('a/b/c');
      await fs.mkdir('a/b');
      expect((await fs.stat('a/b/c')).kind).toBe('directory');
      expect(await reasonOf(fs.mkdir('f.txt'))).toBe('already_exists');
    });
  });

  describe('.snapshot', () => {
    it('should restore every kind of change', async () => {
      const fs = new InMemoryFilesystem({
        files: { 'keep.txt': 'k', 'edit.txt': 'old', 'gone/x.txt': 'x' },
      });
      const snapshot = fs.snapshot();

      await fs.write('new/deep/file.txt', 'n');
      await fs.edit('edit.txt', 'old', 'new');
      await fs.remove('gone', { recursive: true });
      await fs.write('keep.txt', '+', { mode: 'append' });
      fs.restore(snapshot);

      expect(await fs.glob('**')).toEqual(['edit.txt', 'gone/x.txt', 'keep.txt']);
      expect(await fs.readText('edit.txt')).toBe('old');
      expect(await fs.readText('keep.txt')).toBe('k');
      expect(fs.fileCount).toBe(3);
      expect(fs.totalBytes).toBe(5);
      expect(snapshot).toMatchObject({ fileCount: 3, totalBytes: 5 });
    });

    it('should keep every snapshot intact while versions branch', async () => {
      const fs = new InMemoryFilesystem({ files: { 'dir/a.txt': 'a' } });
      const base = fs.snapshot();
      await fs.write('dir/b.txt', 'b');
      const withB = fs.snapshot();
      fs.restore(base);
      await fs.write('dir/c.txt', 'c');
      await fs.write('dir/a.txt', 'A', { mode: 'overwrite' });

      expect(await fs.glob('**')).toEqual(['dir/a.txt', 'dir/c.txt']);
      fs.restore(withB);
      expect(await fs.glob('**')).toEqual(['dir/a.txt', 'dir/b.txt']);
      expect(await fs.readText('dir/a.txt')).toBe('a');
      fs.restore(base);
      expect(await fs.glob('**')).toEqual(['dir/a.txt']);
    });

    it('should let another filesystem restore a snapshot without the two sharing later writes', async () => {
      const first = new InMemoryFilesystem({ files: { 'a.txt': 'a' } });
      const second = new InMemoryFilesystem();
      second.restore(first.snapshot());
      await second.write('b.txt', 'b');
      await first.write('c.txt', 'c');
      expect(await first.glob('*')).toEqual(['a.txt', 'c.txt']);
      expect(await second.glob('*')).toEqual(['a.txt', 'b.txt']);
    });

    it('should reject something that is not a filesystem snapshot', () => {
      expect(() => {
        new InMemoryFilesystem().restore({} as never);
      }).toThrow(FilesystemError);
    });
  });
});
