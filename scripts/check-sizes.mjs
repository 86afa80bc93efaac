// Fails when a source file under src/ is longer than 400 lines (ARCHITECTURE.md, "Checks").
// Usage: node scripts/check-sizes.mjs
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const MAX_LINES = 400;

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

const tooLong = [];
for (const file of sourceFiles('src')) {
  const lines = readFileSync(file, 'utf8').split('\n').length - 1;
  if (lines > MAX_LINES) tooLong.push(`${file}: ${lines} lines`);
}
if (tooLong.length > 0) {
  console.error(
    `${tooLong.length} source file(s) over ${MAX_LINES} lines; split each along its natural parts:\n  ` +
      tooLong.join('\n  '),
  );
  process.exit(1);
}
console.log(`All source files are at most ${MAX_LINES} lines.`);
