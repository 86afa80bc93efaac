/**
 * Cold start: building, preparing and first rendering a prompt of 100
 * `@Section` classes with 5 `@Tool` methods each (500 tools, 500 params
 * classes), then a later render. Every sample uses classes declared afresh, so
 * nothing is cached from the sample before (goal of issue 12: ≤ 50 ms).
 */
import 'reflect-metadata';

import { execFileSync } from 'node:child_process';

import { Container } from 'inversify';

import { installAffordance, Prompt } from '../../src/index.js';
import { formatNs } from './measure.js';
import { declareSections, sections, toolsPerSection } from './section-classes.js';

export default async function run(): Promise<void> {
  const samples = 7;
  const cold: number[] = [];
  const warm: number[] = [];
  for (let round = 0; round < samples; round++) {
    const classes = declareSections(round);
    const runtime = installAffordance(new Container());
    const start = process.hrtime.bigint();
    const prompt = new Prompt({ ns: 'bench', key: `cold-${round}`, sections: classes });
    runtime.prepare(prompt);
    const first = prompt.render();
    cold.push(Number(process.hrtime.bigint() - start));
    if (first.tools.length !== sections * toolsPerSection) throw new Error('tools missing');
    const again = process.hrtime.bigint();
    prompt.render();
    warm.push(Number(process.hrtime.bigint() - again));
    await Promise.resolve();
  }
  cold.sort((a, b) => a - b);
  warm.sort((a, b) => a - b);
  const median = (values: number[]): number => values[Math.floor(values.length / 2)] ?? Number.NaN;
  console.log(
    `\nCold start: prompt of ${sections} sections / ${sections * toolsPerSection} tools, declared afresh each sample`,
  );
  const coldMs = median(cold) / 1e6;
  console.log(
    `  build + prepare + first render   ${formatNs(median(cold)).padStart(10)} (fastest ${formatNs(cold[0] ?? NaN)})  goal ≤ 50 ms: ${coldMs <= 50 ? 'met' : 'not met'}`,
  );
  console.log(`  a later render                   ${formatNs(median(warm)).padStart(10)}`);
  reportImportTime();
}

/** The dependencies `affordance` loads at import (its core dependencies). */
const dependencies = [
  'reflect-metadata',
  'inversify',
  '@inversifyjs/core',
  '@inversifyjs/plugin',
  'class-validator',
  'class-transformer',
  'class-transformer/cjs/storage.js',
  're2js',
];

/**
 * Import time in fresh Node processes: the core dependencies first, then
 * `affordance` itself with its dependencies already loaded, so the second
 * figure is the package's own modules alone.
 */
function reportImportTime(): void {
  const script = `
    const t0 = performance.now();
    for (const name of ${JSON.stringify(dependencies)}) await import(name);
    const t1 = performance.now();
    await import('affordance');
    const t2 = performance.now();
    console.log(JSON.stringify([t1 - t0, t2 - t1]));`;
  const deps: number[] = [];
  const own: number[] = [];
  for (let sample = 0; sample < 7; sample++) {
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: process.cwd(),
      encoding: 'utf8',
    });
    const [dependencyMs, ownMs] = JSON.parse(output) as [number, number];
    deps.push(dependencyMs);
    own.push(ownMs);
  }
  const median = (values: number[]): number =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  console.log('\nImport time in a fresh process (median of 7)');
  console.log(
    `  core dependencies (${dependencies.length} modules)           ${median(deps).toFixed(1)} ms`,
  );
  console.log(`  affordance's own modules, dependencies loaded  ${median(own).toFixed(1)} ms`);
}
