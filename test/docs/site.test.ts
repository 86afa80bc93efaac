import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

import puppeteer, { type Browser, type ConsoleMessage, type Page } from 'puppeteer-core';

import { docsPages, docsRoot, filesUnder, repoRoot } from './docs-pages.js';
import { serveStatic } from './static-site-server.js';

/**
 * The docs site in a real browser: `npm run docs` builds it (TypeDoc's API
 * reference and VitePress), a static server serves it on 127.0.0.1, and
 * Debian's chromium opens every page reachable from the home page. No page may
 * be missing, no link or anchor broken, no console error; local search finds
 * named symbols; code blocks render with their code.
 *
 * A build newer than every source of the site is reused (an author's
 * `npm run docs` just before), otherwise the test builds it.
 */
const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const dist = join(docsRoot, '.vitepress/dist');

/** The newest modification time of the files the site is built from. */
function newestSource(): number {
  const sources = [
    ...docsPages(),
    ...filesUnder(join(docsRoot, 'snippets'), ''),
    ...filesUnder(join(repoRoot, 'src'), '.ts'),
    join(docsRoot, '.vitepress/config.mts'),
    join(repoRoot, 'ARCHITECTURE.md'),
    join(repoRoot, 'typedoc.json'),
  ];
  return Math.max(...sources.map((file) => statSync(file).mtimeMs));
}

async function buildSiteUnlessCurrent(): Promise<void> {
  const index = join(dist, 'index.html');
  if (existsSync(index) && statSync(index).mtimeMs > newestSource()) return;
  await promisify(execFile)('npm', ['run', '--silent', 'docs'], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The page a link names: without its anchor, and `dir/` as `dir/index.html`. */
function pageUrl(link: string): string {
  const target = link.split('#')[0] ?? link;
  return target.endsWith('/') ? `${target}index.html` : target;
}

/** What the crawl saw on one page. */
interface Visit {
  readonly status: number;
  readonly ids: readonly string[];
  readonly links: readonly string[];
  readonly codeBlocks: readonly { readonly text: string; readonly highlighted: boolean }[];
  readonly errors: readonly string[];
}

/** Reads a page's anchors, links and code blocks (a string: the test's TypeScript has no DOM types). */
const readPage = `(() => ({
  ids: [...document.querySelectorAll('[id]')].map((node) => node.id),
  links: [...document.querySelectorAll('a[href]')].map((a) => a.href),
  codeBlocks: [...document.querySelectorAll('div[class*="language-"] pre code')].map((code) => ({
    text: code.textContent,
    highlighted: code.querySelector('span[style]') !== null,
  })),
}))()`;

async function visit(page: Page, url: string): Promise<Visit> {
  const errors: string[] = [];
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() === 'error')
      errors.push(`${message.text()} ${message.location().url ?? ''}`);
  };
  const onError = (error: unknown) => errors.push(String(error));
  page.on('console', onConsole);
  page.on('pageerror', onError);
  try {
    const response = await page.goto(url, { waitUntil: 'load' });
    const seen = (await page.evaluate(readPage)) as Omit<Visit, 'status' | 'errors'>;
    return { status: response?.status() ?? 0, errors, ...seen };
  } finally {
    page.off('console', onConsole);
    page.off('pageerror', onError);
  }
}

describe('docs site, in headless Chromium', () => {
  let browser: Browser | undefined;
  let server: Awaited<ReturnType<typeof serveStatic>> | undefined;
  const visits = new Map<string, Visit>();

  beforeAll(async () => {
    if (!existsSync(chromiumPath)) {
      throw new Error(
        `No Chromium at ${chromiumPath}: this test crawls the docs site in a real browser. ` +
          "Fix: install Debian's chromium package (apt-get install chromium; .ci/run does it in CI), " +
          'or set CHROMIUM_PATH to a Chromium or Chrome executable.',
      );
    }
    await buildSiteUnlessCurrent();
    server = await serveStatic(dist);
    browser = await puppeteer.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    });
    const base = server.base;
    const queue = [`${base}/index.html`];
    const queued = new Set(queue);
    // Four tabs: a page's load mostly waits, so four keep two cores busy.
    const crawl = async (page: Page) => {
      for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
        const seen = await visit(page, url);
        visits.set(url, seen);
        for (const link of seen.links) {
          const target = pageUrl(link);
          if (!target.startsWith(`${base}/`) || queued.has(target)) continue;
          queued.add(target);
          queue.push(target);
        }
      }
    };
    const pages = await Promise.all([1, 2, 3, 4].map(() => (browser as Browser).newPage()));
    // A tab that finds the queue empty while the other still reads a page would stop early: crawl until no URL is left.
    while (queue.length > 0) await Promise.all(pages.map(crawl));
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const page = (path: string): Visit | undefined => visits.get(`${server?.base ?? ''}${path}`);

  it('should reach every guide page and the reference of every entry point from the home page', () => {
    const guides = docsPages()
      .filter((file) => file.startsWith(join(docsRoot, 'guide')))
      .map((file) => `/${relative(docsRoot, file).replace(/\.md$/, '.html')}`);
    expect(guides.length).toBeGreaterThan(10);
    for (const guide of guides) expect([guide, page(guide)?.status]).toEqual([guide, 200]);
    const exported = Object.keys(
      (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { exports: object })
        .exports,
    ).filter((entry) => entry !== './package.json');
    for (const entry of exported) {
      // One page per entry point (TypeDoc's `outputFileStrategy: "modules"`).
      const module = entry === '.' ? 'affordance' : entry.slice(2);
      expect([entry, page(`/api/${module}.html`)?.status]).toEqual([entry, 200]);
    }
  });

  it('should have no broken link and no broken anchor', () => {
    const broken: string[] = [];
    for (const [url, seen] of visits) {
      if (seen.status !== 200) broken.push(`${url}: status ${seen.status}`);
      for (const link of seen.links) {
        if (!link.startsWith(`${server?.base ?? ''}/`)) continue;
        const anchor = link.split('#')[1];
        const landed = visits.get(pageUrl(link));
        if (landed?.status !== 200) broken.push(`${url} → ${link}: no page`);
        else if (
          anchor !== undefined &&
          anchor !== '' &&
          !landed.ids.includes(decodeURIComponent(anchor))
        ) {
          broken.push(`${url} → ${link}: no anchor`);
        }
      }
    }
    expect(visits.size).toBe(filesUnder(dist, '.html').length - 1); // every page but 404.html
    expect(broken).toEqual([]);
  });

  it('should log no console error on any page', () => {
    const errors = [...visits].flatMap(([url, seen]) =>
      seen.errors.map((error) => `${url}: ${error}`),
    );
    expect(errors).toEqual([]);
  });

  it('should render every code block with its code, highlighted', () => {
    const empty = [...visits].flatMap(([url, seen]) =>
      seen.codeBlocks.filter((block) => block.text.trim() === '').map(() => url),
    );
    expect(empty).toEqual([]);
    const start = page('/guide/getting-started.html');
    expect(
      start?.codeBlocks.some((block) => block.text.includes('installAffordance(container)')),
    ).toBe(true);
    expect(start?.codeBlocks.some((block) => block.text.includes('Tool validation failed'))).toBe(
      true,
    );
    expect(start?.codeBlocks.filter((block) => block.highlighted).length).toBeGreaterThan(3);
    // Each included snippet is a code block on its page.
    for (const file of docsPages().filter((path) => path.startsWith(join(docsRoot, 'guide')))) {
      const markdown = readFileSync(file, 'utf8');
      const blocks =
        (markdown.match(/^```/gm) ?? []).length / 2 + (markdown.match(/^<<</gm) ?? []).length;
      const rendered =
        page(`/${relative(docsRoot, file).replace(/\.md$/, '.html')}`)?.codeBlocks.length ?? 0;
      expect([relative(docsRoot, file), rendered]).toEqual([
        relative(docsRoot, file),
        Math.max(rendered, blocks),
      ]);
    }
  });

  it.each(['ToolContext', 'evaluate', 'SessionPersistence', 'McpToolServer'])(
    'should find %s with the local search',
    async (symbol) => {
      const tab = await (browser as Browser).newPage();
      try {
        await tab.goto(`${server?.base ?? ''}/guide/getting-started.html`, { waitUntil: 'load' });
        await tab.click('button.DocSearch');
        await tab.waitForSelector('.VPLocalSearchBox input');
        await tab.keyboard.type(symbol);
        await tab.waitForFunction(
          `[...document.querySelectorAll('.VPLocalSearchBox .result')]
            .some((result) => result.textContent.includes(${JSON.stringify(symbol)}))`,
          { timeout: 20_000 },
        );
      } finally {
        await tab.close();
      }
    },
  );
});
