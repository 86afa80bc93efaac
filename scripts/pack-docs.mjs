// Writes the guides into dist/docs/ for the published package, for people and
// coding assistants reading the installed version offline: each page with its
// snippet includes (`<<< @/snippets/...`) and file includes (`<!--@include: -->`)
// replaced by the code itself, plus dist/docs/llms.txt, an index of the pages.
// Run by `prepack` after the build (README, "Documentation").
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const docs = join(root, 'docs');
const out = join(root, 'dist/docs');

/** The lines of `file` between `// #region name` and `// #endregion name`, or all of it. */
function snippet(file, region) {
  const lines = readFileSync(file, 'utf8').replace(/\n$/, '').split('\n');
  if (region === undefined)
    return lines.filter((line) => !/\/\/ #(end)?region\b/.test(line)).join('\n');
  const start = lines.findIndex((line) => line.includes(`#region ${region}`));
  const end = lines.findIndex((line) => line.includes(`#endregion ${region}`));
  if (start < 0 || end < start) throw new Error(`${file} has no region '${region}'`);
  const body = lines.slice(start + 1, end);
  const indent = Math.min(
    ...body.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)[0].length),
  );
  return body.map((line) => line.slice(indent)).join('\n');
}

function expand(page, text) {
  return text
    .split('\n')
    .map((line) => {
      const include = /^<<<\s+(\S+?)(?:#([\w-]+))?(?:\{(\w+)[^}]*\})?\s*$/.exec(line);
      if (include !== null) {
        const [, target, region, language] = include;
        const file = target.startsWith('@/')
          ? join(docs, target.slice(2))
          : resolve(dirname(page), target);
        const fence =
          language ?? (file.split('.').pop() === 'txt' ? 'text' : file.split('.').pop());
        return `\`\`\`${fence}\n${snippet(file, region)}\n\`\`\``;
      }
      const fileInclude = /^<!--@include:\s*(\S+?)(?:\{(\d+),\})?-->$/.exec(line);
      if (fileInclude !== null) {
        const lines = readFileSync(resolve(dirname(page), fileInclude[1]), 'utf8').split('\n');
        return lines.slice(Number(fileInclude[2] ?? 1) - 1).join('\n');
      }
      return line;
    })
    .join('\n');
}

mkdirSync(out, { recursive: true });
const index = [];
for (const name of readdirSync(join(docs, 'guide'))
  .filter((file) => file.endsWith('.md'))
  .sort()) {
  const page = join(docs, 'guide', name);
  const text = expand(page, readFileSync(page, 'utf8'));
  writeFileSync(join(out, name), text);
  const title = /^# (.+)$/m.exec(text)?.[1] ?? name;
  const summary = text.split('\n\n')[1]?.replace(/\s+/g, ' ').trim() ?? '';
  index.push(
    `- [${title}](${name}): ${summary.length > 240 ? `${summary.slice(0, 237)}...` : summary}`,
  );
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const entries = Object.keys(pkg.exports).filter((entry) => entry !== './package.json');
writeFileSync(
  join(out, 'llms.txt'),
  `# affordance ${pkg.version}

> ${pkg.description}

These guides are the ones of this installed version. Every code block in them is compiled and run by the library's
tests. The API reference is the TypeScript declarations with their TSDoc comments.

## Guides

${index.join('\n')}

## API reference

${entries
  .map((entry) => {
    const sub = entry === '.' ? '' : entry.slice(2);
    return `- \`affordance${sub === '' ? '' : `/${sub}`}\`: ../${sub === '' ? '' : `${sub}/`}index.d.ts`;
  })
  .join('\n')}
`,
);
console.error(`docs: ${index.length} guides and llms.txt written to dist/docs/`);
