/**
 * Runs every `*.bench.js` module next to this file (compiled by `npm run bench`),
 * one after another. Each module exports a default async function that prints its table.
 */
import { readdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const files = (await readdir(here))
  .filter((file) => file.endsWith('.bench.js'))
  .filter((file) => only === undefined || file.includes(only))
  .sort();

console.log(
  `affordance benchmarks on Node ${process.version} (${process.platform}/${process.arch})`,
);
for (const file of files) {
  const module = (await import(pathToFileURL(`${here}/${file}`).href)) as {
    default: () => Promise<void>;
  };
  await module.default();
}
