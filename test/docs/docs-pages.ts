import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root and the docs source root (VitePress's `@`). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const docsRoot = join(repoRoot, 'docs');

/** Directories under docs/ that hold no hand-written pages. */
const notPages = new Set(['api', '.vitepress', 'snippets', 'node_modules']);

/** Every file under `dir` whose name ends with `suffix`, recursively, skipping `skip` at the top. */
export function filesUnder(
  dir: string,
  suffix: string,
  skip: ReadonlySet<string> = new Set(),
): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skip.has(entry.name) ? [] : filesUnder(path, suffix);
    return entry.name.endsWith(suffix) ? [path] : [];
  });
}

/** The hand-written markdown pages of the site (not the generated API reference). */
export function docsPages(): string[] {
  return filesUnder(docsRoot, '.md', notPages);
}

const scriptLanguages = new Set([
  'ts',
  'typescript',
  'tsx',
  'mts',
  'cts',
  'js',
  'javascript',
  'jsx',
  'mjs',
  'cjs',
]);

/**
 * What is wrong with one markdown page under the docs convention: an inline
 * TypeScript or JavaScript fenced block (code must be a snippet include), or a
 * `<<<` include whose file or `#region` does not exist. `page` is the page's
 * path, used to resolve relative includes and to name the page in messages.
 */
export function pageProblems(page: string, text: string): string[] {
  const problems: string[] = [];
  const name = relative(repoRoot, page);
  let fence: string | undefined;
  text.split('\n').forEach((line, index) => {
    const at = `${name}:${index + 1}`;
    const opening = /^\s*(`{3,}|~{3,})\s*([\w-]*)/.exec(line);
    if (fence !== undefined) {
      if (opening !== null && line.trim().startsWith(fence) && line.trim() === fence)
        fence = undefined;
      return;
    }
    if (opening !== null) {
      fence = opening[1];
      const language = (opening[2] ?? '').toLowerCase();
      if (scriptLanguages.has(language)) {
        problems.push(
          `${at}: inline \`${language}\` block. Fix: move the code into docs/snippets/<slug>/<name>.ts, ` +
            'include it with <<< @/snippets/<slug>/<name>.ts and run it from a test in test/docs/.',
        );
      }
      return;
    }
    const include = /^\s*<<<\s+(\S+)/.exec(line);
    if (include === null) return;
    const [target = '', region] = (include[1] ?? '').replace(/[{[].*$/, '').split('#');
    const file = target.startsWith('@/')
      ? join(docsRoot, target.slice(2))
      : resolve(dirname(page), target);
    if (!existsSync(file)) {
      problems.push(
        `${at}: includes ${target}, which does not exist. Fix: create it or correct the path.`,
      );
      return;
    }
    if (region !== undefined && region !== '') {
      const source = readFileSync(file, 'utf8');
      if (
        !new RegExp(`#region ${region}\\b`).test(source) ||
        !new RegExp(`#endregion ${region}\\b`).test(source)
      ) {
        problems.push(
          `${at}: includes region '${region}' of ${target}, which has no '// #region ${region}' ... ` +
            `'// #endregion ${region}'. Fix: add the markers or correct the name.`,
        );
      }
    }
  });
  return problems;
}

/**
 * Relative module specifiers `source` imports (static, dynamic and re-exports),
 * and the relative files it names as `new URL('./file.ts', import.meta.url)`
 * (test/durable-servers/getting-started-walk.test.ts runs the page's programs
 * that way, compiled in a fresh project, and checks the page shows those files).
 */
function relativeImports(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(
    /(?:from\s+|import\s*\(\s*|import\s+|new URL\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g,
  )) {
    if (match[1] !== undefined) found.push(match[1]);
  }
  return found;
}

/** The file a relative specifier names (`./x.js` is `./x.ts` in the sources). */
function resolveImport(from: string, specifier: string): string {
  const path = resolve(dirname(from), specifier);
  const ts = path.replace(/\.js$/, '.ts');
  return existsSync(ts) ? ts : path;
}

/**
 * The snippet files no test under `testDir` imports, directly or through other
 * snippet files: code a page shows that nothing runs.
 */
export function unrunSnippets(snippets: readonly string[], testFiles: readonly string[]): string[] {
  const reached = new Set<string>();
  const queue = [...testFiles];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const specifier of relativeImports(readFileSync(file, 'utf8'))) {
      const target = resolveImport(file, specifier);
      if (reached.has(target) || !target.startsWith(docsRoot) || !existsSync(target)) continue;
      if (!statSync(target).isFile()) continue; // a folder named by `new URL('./folder/', ...)`
      reached.add(target);
      queue.push(target);
    }
  }
  return snippets.filter((snippet) => !reached.has(snippet));
}
