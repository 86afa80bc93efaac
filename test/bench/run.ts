/**
 * Runs every `*.bench.js` module next to this file (compiled by `npm run bench`),
 * one after another, each in a process of its own (`npm run bench -- dispatch`
 * runs the files whose name contains `dispatch`). Each module exports a default
 * async function that prints its tables.
 */
import { spawnSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const files = (await readdir(here))
  .filter((file) => file.endsWith('.bench.js'))
  .filter((file) => only === undefined || file.includes(only))
  .sort();

if (process.env['AFFORDANCE_BENCH_CHILD'] === undefined) {
  console.log(
    `affordance benchmarks on Node ${process.version} (${process.platform}/${process.arch})`,
  );
}
if (files.length === 1 || process.env['AFFORDANCE_BENCH_CHILD'] !== undefined) {
  for (const file of files) {
    const module = (await import(pathToFileURL(`${here}/${file}`).href)) as {
      default: () => Promise<void>;
    };
    await module.default();
  }
} else {
  // Each file in a process of its own: a benchmark that fills the heap (a session of 10^6 events)
  // would otherwise slow every contender measured after it, the peers included.
  for (const file of files) {
    const run = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), file], {
      stdio: 'inherit',
      env: { ...process.env, AFFORDANCE_BENCH_CHILD: '1' },
    });
    if (run.status !== 0) process.exit(run.status ?? 1);
  }
}
