/**
 * Cold start in fresh processes: each sample is a new Node process that
 * imports affordance, declares a prompt of 100 `@Section` classes with 5 tools
 * each, and builds it once (installAffordance, prepare, first render: goal of
 * issue 38 ≤ 40 ms), beside the import time of `affordance` and of each of its
 * dependencies alone, each in a process of its own. Contenders interleaved;
 * the median of the samples of each round, three rounds.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const rounds = 3;
const samplesPerRound = 5;

/** What a fresh process imports alone, to time it; `affordance` after its dependencies is the package's own modules. */
const imports: readonly { readonly name: string; readonly before?: readonly string[] }[] = [
  { name: 'affordance' },
  {
    name: 'affordance',
    before: ['reflect-metadata', 'inversify', 'class-validator', 'class-transformer', 're2js'],
  },
  { name: 'reflect-metadata' },
  { name: 'inversify' },
  { name: 'class-validator' },
  { name: 'class-transformer' },
  { name: 're2js' },
];

function label(entry: (typeof imports)[number]): string {
  return entry.before === undefined ? entry.name : `${entry.name}, dependencies loaded`;
}

/** Milliseconds a fresh process takes to `import` `entry.name` (after `entry.before`, untimed). */
function importTime(entry: (typeof imports)[number]): number {
  const script = `
    for (const name of ${JSON.stringify(entry.before ?? [])}) await import(name);
    const start = performance.now();
    const module = await import(${JSON.stringify(entry.name)});
    const ms = performance.now() - start;
    if (Object.keys(module).length === 0) throw new Error('nothing imported');
    console.log(JSON.stringify(ms));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: join(here, '..', '..', '..'),
    encoding: 'utf8',
  });
  return JSON.parse(output) as number;
}

interface Build {
  readonly importMs: number;
  readonly declareMs: number;
  readonly firstBuildMs: number;
  readonly firstBuildCpuMs: number;
  readonly laterRenderMs: number;
}

function build(): Build {
  const output = execFileSync(process.execPath, [join(here, 'cold-process-child.js')], {
    encoding: 'utf8',
  });
  return JSON.parse(output) as Build;
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const ms = (value: number): string => `${value.toFixed(1)} ms`;

export default function run(): Promise<void> {
  const builds: Build[][] = [];
  const importRounds: number[][][] = [];
  for (let round = 0; round < rounds; round++) {
    const roundBuilds: Build[] = [];
    const roundImports: number[][] = imports.map(() => []);
    for (let sample = 0; sample < samplesPerRound; sample++) {
      // Interleaved: each sample starts from another contender.
      const order = [-1, ...imports.keys()];
      const shift = (round * samplesPerRound + sample) % order.length;
      for (const index of [...order.slice(shift), ...order.slice(0, shift)]) {
        if (index === -1) roundBuilds.push(build());
        else roundImports[index]?.push(importTime(imports[index] ?? { name: 'affordance' }));
      }
    }
    builds.push(roundBuilds);
    importRounds.push(roundImports);
  }
  const perRound = (pick: (b: Build) => number): number[] =>
    builds.map((round) => median(round.map(pick)));
  const line = (name: string, values: readonly number[]): string =>
    `  ${name.padEnd(44)} ${values
      .map(ms)
      .map((text) => text.padStart(9))
      .join(' ')}`;
  console.log(
    `\nCold start in fresh processes (100 sections / 500 tools; median of ${samplesPerRound} processes per round, rounds 1-${rounds})`,
  );
  const first = perRound((b) => b.firstBuildMs);
  console.log(
    line(
      'import of everything (process start → ready)',
      perRound((b) => b.importMs),
    ),
  );
  console.log(
    line(
      'declaring the 100 classes (decorators)',
      perRound((b) => b.declareMs),
    ),
  );
  console.log(line('installAffordance + prepare + first render', first));
  // CPU time moves less than wall time when other processes share the cores.
  const cpu = perRound((b) => b.firstBuildCpuMs);
  console.log(line('  the same, CPU time of the process', cpu));
  console.log(
    line(
      'a later render',
      perRound((b) => b.laterRenderMs),
    ),
  );
  const verdict = median(first) <= 40 ? 'met' : 'not met';
  console.log(
    `  first build, median of the rounds ${ms(median(first))} (CPU ${ms(median(cpu))})  goal ≤ 40 ms: ${verdict}`,
  );
  console.log(
    `\nImport time in a fresh process, each module alone (median of ${samplesPerRound} processes per round)`,
  );
  imports.forEach((entry, index) => {
    console.log(
      line(
        label(entry),
        importRounds.map((round) => median(round[index] ?? [])),
      ),
    );
  });
  return Promise.resolve();
}
