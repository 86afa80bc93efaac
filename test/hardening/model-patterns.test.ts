import {
  Filesystem,
  FilesystemError,
  InMemoryFilesystem,
  type InMemoryFilesystemOptions,
  Prompt,
  ResourceRegistry,
  type ToolCallOutcome,
} from 'affordance';
import type { ScriptedToolCall } from 'affordance/testing';
import { FilesystemToolsSection } from 'affordance/filesystem';

import { compileGlob } from '../../src/resources/glob-pattern.js';
import { runToolCalls } from '../support/run-tool-calls.js';

const prompt = new Prompt({ ns: 'hardening', key: 'patterns', sections: [FilesystemToolsSection] });

/** Runs one tool call over an in-memory workspace holding `files`. */
async function runTool(
  name: string,
  args: object,
  files: Readonly<Record<string, string>>,
  options: Omit<InMemoryFilesystemOptions, 'files'> = {},
): Promise<ToolCallOutcome> {
  const filesystem = new InMemoryFilesystem({ ...options, files });
  const resources = new ResourceRegistry().bind(Filesystem, { create: () => filesystem });
  const call: ScriptedToolCall = { name, arguments: args };
  const run = await runToolCalls(prompt, [[call]], { resources });
  expect(run.outcomes).toHaveLength(1);
  return run.outcomes[0] as ToolCallOutcome;
}

function matcherOf(pattern: string) {
  const compiled = compileGlob(pattern);
  if (!compiled.ok) throw new Error(compiled.problem);
  return compiled.matcher;
}

describe('fs_grep runs the regular expression a model sends in time linear in the text', () => {
  // With a backtracking engine each of these lines takes about 2^60 steps: the
  // process would never answer.
  it('answers (a+)+$ against a long run of a followed by ! at once, without a match', async () => {
    const outcome = await runTool(
      'fs_grep',
      { pattern: '(a+)+$' },
      { 'log.txt': `${'a'.repeat(60)}!\n`, 'ok.txt': 'aaa\n' },
    );
    expect(outcome.result.success).toBe(true);
    expect(outcome.message).toBe("1 line matches '(a+)+$'.\n\nok.txt:1: aaa");
  });

  it('answers nested and overlapping repetitions on long lines at once', async () => {
    const filesystem = new InMemoryFilesystem({
      files: { 'x.txt': `${'x'.repeat(5_000)}\n${'ab'.repeat(2_000)}\n` },
    });
    for (const pattern of ['(x+x+)+y', '(a|aa)*(a|aa)*(a|aa)*c', '(.*a){20}c', '^(\\w+\\s?)*$!']) {
      expect(await filesystem.grep(pattern)).toEqual({ matches: [], truncated: false });
    }
  });

  it.each([
    ['(\\w+) \\1', "backreference '\\1'"],
    ['(?<word>\\w+) \\k<word>', "backreference '\\k<name>'"],
    ['foo(?=bar)', "lookahead '(?=...)'"],
    ['foo(?!bar)', "lookahead '(?!...)'"],
    ['(?<=foo)bar', "lookbehind '(?<=...)'"],
    ['(?<!foo)bar', "lookbehind '(?<!...)'"],
  ])(
    'refuses %s with a tool error naming the unsupported %s and what to write instead',
    async (pattern, named) => {
      const outcome = await runTool('fs_grep', { pattern }, { 'a.txt': 'foo foo\nfoobar\n' });
      expect(outcome.result.success).toBe(false);
      expect(outcome.message).toContain(`the pattern uses a ${named}`);
      expect(outcome.message).toContain(
        'which the linear-time regular expression engine (RE2 syntax) does not support.',
      );
      expect(outcome.message).toMatch(
        /Search for the repeated text itself|Match the surrounding text directly/,
      );
    },
  );

  it('still reads \\k inside a character class as a plain k', async () => {
    const outcome = await runTool('fs_grep', { pattern: '[\\k<]x' }, { 'a.txt': 'k<x\n<x\n' });
    expect(outcome.message).toBe("2 lines match '[\\k<]x'.\n\na.txt:1: k<x\na.txt:2: <x");
  });

  it('refuses a pattern longer than maxPatternLength before searching', async () => {
    const outcome = await runTool('fs_grep', { pattern: 'a'.repeat(1_001) }, { 'a.txt': 'a\n' });
    expect(outcome.result.success).toBe(false);
    expect(outcome.message).toBe(
      'The pattern is 1001 characters long; the limit is 1000. Use a shorter, more specific one.',
    );
  });

  it('refuses a short pattern whose counted repetitions compile to a huge program', async () => {
    const outcome = await runTool('fs_grep', { pattern: '.{999}.{999}x' }, { 'a.txt': 'a\n' });
    expect(outcome.result.success).toBe(false);
    expect(outcome.message).toMatch(
      /^grep '\.': the pattern is too complex: it compiles to \d+ instructions; the limit is 500\. Counted repetitions/,
    );
  });

  it('refuses \\p{L}{700}[0-9], past the size where the engine slows to seconds per MiB', async () => {
    const outcome = await runTool('fs_grep', { pattern: '\\p{L}{700}[0-9]' }, { 'a.txt': 'a\n' });
    expect(outcome.result.success).toBe(false);
    expect(outcome.message).toMatch(/it compiles to 703 instructions; the limit is 500\./);
  });

  it('keeps ordinary patterns, JavaScript escapes, named groups and ignoreCase', async () => {
    const files = { 'src/a.ts': 'const answer = 42;\nlet café = "x";\nALPHA beta\n' };
    const grep = async (args: object) => (await runTool('fs_grep', args, files)).message;
    expect(await grep({ pattern: '^const \\w+ = \\d+;$' })).toBe(
      "1 line matches '^const \\w+ = \\d+;$'.\n\nsrc/a.ts:1: const answer = 42;",
    );
    expect(await grep({ pattern: 'caf\\u00e9|(?<greek>alpha)', ignoreCase: true })).toBe(
      '2 lines match \'caf\\u00e9|(?<greek>alpha)\'.\n\nsrc/a.ts:2: let café = "x";\nsrc/a.ts:3: ALPHA beta',
    );
    expect(await grep({ pattern: 'alpha' })).toBe("No lines match 'alpha'.");
  });

  it('reports an invalid pattern with a short, clear message', async () => {
    const outcome = await runTool(
      'fs_grep',
      { pattern: `(${'x'.repeat(900)}` },
      { 'a.txt': 'a\n' },
    );
    expect(outcome.result.success).toBe(false);
    expect(outcome.message).toMatch(
      /^grep '\.': the pattern is not a valid regular expression \(missing closing \): \(x{39}…\)\. Escape special characters/,
    );
  });
});

describe('a long search never holds the process, and stops when its call is cancelled', () => {
  // 8 MiB of text in 64 files: the search must give the event loop turns while it scans.
  const files: Record<string, string> = {};
  for (let index = 0; index < 64; index += 1) {
    files[`logs/${index}.txt`] = `${'x'.repeat(1023)}\n`.repeat(128);
  }

  it('lets other work run while it scans', async () => {
    const filesystem = new InMemoryFilesystem({ files });
    let turns = 0;
    let searching = true;
    const tick = (): void => {
      turns += 1;
      if (searching) setImmediate(tick);
    };
    setImmediate(tick);
    const found = await filesystem.grep('y');
    searching = false;
    expect(found.matches).toEqual([]);
    // One turn per 64 KiB scanned, at least: 8 MiB gives well over 100.
    expect(turns).toBeGreaterThanOrEqual(100);
  });

  it('stops with the signal’s reason once the signal aborts', async () => {
    const filesystem = new InMemoryFilesystem({ files });
    const controller = new AbortController();
    const search = filesystem.grep('y', { signal: controller.signal });
    controller.abort(new Error('deadline passed'));
    await expect(search).rejects.toThrow('deadline passed');
  });
});

describe('globs match in time linear in the path, whatever the pattern', () => {
  // Backtracking tries every way to share the path among the wildcards:
  // C(79, 20) ≈ 10^18 ways for the first pattern, C(75, 12) ≈ 10^13 for the second.
  const stars = `${'*a'.repeat(20)}*b`;
  const deep = Array.from({ length: 64 }, () => 'd').join('/');
  const globstars = `${'**/'.repeat(12)}x`;

  it('finds nothing for *a*a…*a*b over a long name full of a, at once', async () => {
    const outcome = await runTool('fs_glob', { pattern: stars }, { ['a'.repeat(79)]: '' });
    expect(outcome.result.success).toBe(true);
    expect(outcome.message).toBe(`No files match '${stars}'.`);
  });

  it('finds nothing for a dozen **/ over a deep path, at once, and keeps fs_grep glob filters linear', async () => {
    const options = { limits: { maxPathDepth: 80 } };
    const files = { [`${deep}/y`]: 'hit\n', x: 'hit\n' };
    expect((await runTool('fs_glob', { pattern: globstars }, files, options)).message).toBe(
      `1 file matches '${globstars}'.\n\nx`,
    );
    expect(
      (await runTool('fs_grep', { pattern: 'hit', glob: globstars }, files, options)).message,
    ).toBe("1 line matches 'hit'.\n\nx:1: hit");
  });

  it('does at most (path length + 1) × automaton size steps per path', () => {
    const cases: [string, string][] = [
      [stars, 'a'.repeat(79)],
      [globstars, `${deep}/y`],
      ['{*,**/}*{a,b,{c,d}*}?[!x]', 'ab/cd/'.repeat(40)],
      ['**', 'z/'.repeat(500)],
    ];
    for (const [pattern, path] of cases) {
      const matcher = matcherOf(pattern);
      const before = matcher.steps;
      matcher.test(path);
      const steps = matcher.steps - before;
      expect(steps).toBeGreaterThan(0);
      // Each code point is one step of the automaton (the paths here hold no surrogate pairs).
      expect(steps).toBeLessThanOrEqual((path.length + 1) * matcher.size);
    }
  });

  it('grows its work linearly when the path grows', () => {
    const matcher = matcherOf(stars);
    const cost = (length: number): number => {
      const before = matcher.steps;
      matcher.test('a'.repeat(length));
      return matcher.steps - before;
    };
    // Once every state is active, each further character costs the same.
    const [one, two, three] = [cost(1_000), cost(2_000), cost(3_000)];
    expect(three - two).toBe(two - one);
    expect(two - one).toBeLessThanOrEqual(1_000 * matcher.size);
  });

  it('refuses a glob with too many wildcards, or too long, with a clear error', async () => {
    const wild = await runTool('fs_glob', { pattern: '*'.repeat(65) }, { a: '' });
    expect(wild.result.success).toBe(false);
    expect(wild.message).toBe(
      `glob '${'*'.repeat(65)}': the glob pattern has more than 64 wildcards (*, **, ?, [...]). Use fewer wildcards, or run several narrower globs.`,
    );
    const long = await runTool('fs_glob', { pattern: 'a'.repeat(1_001) }, { a: '' });
    expect(long.message).toBe(
      'The glob pattern is 1001 characters long; the limit is 1000. Use a shorter, more specific one.',
    );
    const filter = await runTool('fs_grep', { pattern: 'a', glob: '?'.repeat(1_001) }, { a: '' });
    expect(filter.message).toBe(
      'The glob is 1001 characters long; the limit is 1000. Use a shorter, more specific one.',
    );
  });

  it('refuses the same globs when code calls the filesystem directly', async () => {
    const filesystem = new InMemoryFilesystem({ files: { a: '' } });
    const error = await filesystem.glob('?'.repeat(5_000)).catch((e: unknown) => e);
    expect(FilesystemError.is(error)).toBe(true);
    expect((error as FilesystemError).reason).toBe('invalid_argument');
    expect((error as FilesystemError).message).toBe(
      `glob '${'?'.repeat(100)}… (5000 characters)': the glob pattern is 5000 characters long; the limit is 1000. Use a shorter pattern, or pass a narrower directory as path.`,
    );
  });
});
