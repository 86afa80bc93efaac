import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import {
  docsPages,
  docsRoot,
  filesUnder,
  pageProblems,
  repoRoot,
  unrunSnippets,
} from './docs-pages.js';

/**
 * The docs cannot drift: every page's code is a snippet file that the
 * type-check compiles and a test under test/docs/ runs.
 */
const fixtures = join(repoRoot, 'test/docs/fixtures');

describe('docs: code blocks', () => {
  it('should find the pages of the site', () => {
    const pages = docsPages().map((page) => relative(docsRoot, page));
    expect(pages).toContain('guide/getting-started.md');
    expect(pages.some((page) => page.startsWith('api/'))).toBe(false);
  });

  it('should have no inline TypeScript block and no broken include on any page', () => {
    const problems = docsPages().flatMap((page) => pageProblems(page, readFileSync(page, 'utf8')));
    expect(problems).toEqual([]);
  });

  it('should run every snippet file from a test under test/docs/ (or the Getting started walk)', () => {
    const snippets = filesUnder(join(docsRoot, 'snippets'), '.ts');
    expect(snippets.length).toBeGreaterThan(0);
    const tests = [
      ...filesUnder(join(repoRoot, 'test/docs'), '.ts'),
      // The Getting started page's programs need a Redis server: the servers project runs them.
      join(repoRoot, 'test/durable-servers/getting-started-walk.test.ts'),
    ];
    expect(unrunSnippets(snippets, tests).map((file) => relative(repoRoot, file))).toEqual([]);
  });

  it('should reject a page with an inline TypeScript block, naming the line and the fix', () => {
    const page = join(fixtures, 'inline-ts.md');
    const problems = pageProblems(page, readFileSync(page, 'utf8'));
    expect(problems).toEqual([
      expect.stringMatching(
        /^test\/docs\/fixtures\/inline-ts\.md:5: inline `ts` block\. Fix: move/,
      ),
      expect.stringMatching(/^test\/docs\/fixtures\/inline-ts\.md:13: inline `typescript` block/),
    ]);
  });

  it('should reject an include of a missing file or a missing region', () => {
    const page = join(fixtures, 'bad-includes.md');
    const problems = pageProblems(page, readFileSync(page, 'utf8'));
    expect(problems).toEqual([
      expect.stringContaining(
        ':3: includes @/snippets/no-such-page/missing.ts, which does not exist',
      ),
      expect.stringContaining(
        ":5: includes region 'no-such-region' of @/snippets/getting-started/openai-agent.ts",
      ),
    ]);
  });

  it('should accept the same page once its code is included from a snippet with an existing region', () => {
    const page = join(fixtures, 'good-includes.md');
    expect(pageProblems(page, readFileSync(page, 'utf8'))).toEqual([]);
  });

  it('should report a snippet no test imports', () => {
    const orphan = join(docsRoot, 'snippets/getting-started/openai-agent.ts');
    expect(unrunSnippets([orphan], [])).toEqual([orphan]);
    expect(unrunSnippets([orphan], [join(repoRoot, 'test/docs/getting-started.test.ts')])).toEqual(
      [],
    );
  });
});
