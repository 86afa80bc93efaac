/**
 * The packed package works for a consumer, from CommonJS (`require`, through
 * Node's require(esm), Node >= 20.19) and from ES modules.
 *
 * How the consumer is set up, offline:
 * - The package is built from `src/` into a temporary directory with
 *   `tsc -p tsconfig.build.json --outDir`, never from a `dist/` that may be
 *   missing or stale, and without touching the working tree. `package.json`
 *   and `README.md` are copied beside it and `npm pack` packs that directory,
 *   so the tarball is what `npm publish` would upload (same `files` and `exports`).
 * - The tarball is unpacked into `consumer/node_modules/affordance`, where
 *   `npm install <tarball>` puts it. npm itself cannot install it here: its
 *   dependencies are not in the npm cache and the test runs offline. They are
 *   linked instead from this project's `node_modules` (the versions the lock
 *   file pins), so the consumer's `require('inversify')` and affordance's are
 *   the same module, as with a real install.
 * - Each consumer file runs in a plain `node` (no jest, no NODE_OPTIONS).
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const entryPoints = [
  'affordance/testing',
  'affordance/openai',
  'affordance/planning',
  'affordance/nest',
];

let work: string;
let consumer: string;
let packedFiles: string[];

/** Runs `command` in a plain environment; a failure shows what it printed (tsc reports on stdout). */
function run(command: string, args: readonly string[], cwd: string): string {
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  try {
    return execFileSync(command, args, {
      cwd,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `${[command, ...args].join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`.slice(0, 4000),
      { cause: error },
    );
  }
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'affordance-consumer-'));
  const pkg = join(work, 'pkg');
  mkdirSync(pkg);
  run(
    process.execPath,
    [
      join(repo, 'node_modules/typescript/bin/tsc'),
      '-p',
      'tsconfig.build.json',
      '--outDir',
      join(pkg, 'dist'),
    ],
    repo,
  );
  copyFileSync(join(repo, 'package.json'), join(pkg, 'package.json'));
  copyFileSync(join(repo, 'README.md'), join(pkg, 'README.md'));
  const packed = JSON.parse(
    run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], pkg),
  ) as { filename: string; files: { path: string }[] }[];
  const tarball = join(work, packed[0]?.filename ?? '');
  packedFiles = (packed[0]?.files ?? []).map((file) => file.path);

  consumer = join(work, 'consumer');
  const modules = join(consumer, 'node_modules');
  mkdirSync(join(modules, 'affordance'), { recursive: true });
  run('tar', ['-xzf', tarball, '-C', join(modules, 'affordance'), '--strip-components=1'], work);
  for (const entry of readdirSync(join(repo, 'node_modules'))) {
    if (entry.startsWith('.') || entry === 'affordance') continue;
    symlinkSync(join(repo, 'node_modules', entry), join(modules, entry));
  }
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }),
  );
  writeFileSync(join(consumer, 'agent.cjs'), commonJsConsumer);
  writeFileSync(join(consumer, 'agent.mjs'), esmConsumer);
}, 120_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** What both consumers print: one scripted evaluation that calls a tool. */
const expectedRun = {
  text: 'Echoed.',
  calls: [{ name: 'echo', outcome: 'success', content: 'HELLO' }],
  sliceOp: 'function',
  sameInversify: true,
};

describe('The packed package', () => {
  it('holds the built entry points and no sources or tests', () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        'package.json',
        'dist/index.js',
        'dist/index.d.ts',
        ...entryPoints.map((entry) => `dist/${entry.slice('affordance/'.length)}/index.js`),
      ]),
    );
    expect(packedFiles.filter((file) => !file.startsWith('dist/'))).toEqual(
      expect.arrayContaining(['package.json']),
    );
    expect(packedFiles.some((file) => file.startsWith('src/') || file.startsWith('test/'))).toBe(
      false,
    );
  });

  it('can be required from CommonJS: a ToolDefinition evaluated with affordance/testing', () => {
    const output = run(process.execPath, ['agent.cjs'], consumer);
    expect(JSON.parse(output)).toEqual({
      ...expectedRun,
      entryPoints: entryPoints.map(() => 'object'),
    });
  });

  it('can be imported from an ES module', () => {
    const output = run(process.execPath, ['agent.mjs'], consumer);
    expect(JSON.parse(output)).toEqual({
      ...expectedRun,
      entryPoints: entryPoints.map(() => 'object'),
    });
  });
});

/** The agent both consumers run, written once: `load(name)` is `require` or `import`. */
const agentBody = `
const { IsString } = load('class-validator');
const { Container } = load('inversify');
const { MarkdownSection, Prompt, Session, SliceOp, ToolDefinition, ToolInvoked, ToolResult } = load('affordance');
const { createTestRuntime } = load('affordance/testing');

class EchoParams {
  text;
}
IsString()(EchoParams.prototype, 'text');

const echo = new ToolDefinition({
  name: 'echo',
  description: 'Echo the text in capitals.',
  params: EchoParams,
  handler: (params) => ToolResult.ok(params.text.toUpperCase()),
});
const prompt = new Prompt({
  ns: 'consumer',
  key: 'echo',
  sections: [new MarkdownSection({ key: 'echo', title: 'Echo', template: 'Echo what you are given.', tools: [echo] })],
});
const { adapter, container } = createTestRuntime({
  script: [{ toolCalls: [{ name: 'echo', arguments: { text: 'hello' } }] }, { text: 'Echoed.' }],
});
const session = new Session();
adapter.evaluate(prompt, { session, input: 'hello' }).then((response) => {
  console.log(JSON.stringify({
    text: response.text,
    calls: session.slice(ToolInvoked).all().map((call) => ({
      name: call.name,
      outcome: call.outcome,
      content: call.result.value,
    })),
    sliceOp: typeof SliceOp.append,
    sameInversify: container instanceof Container,
    entryPoints: ${JSON.stringify(entryPoints)}.map((name) => typeof load(name)),
  }));
});
`;

const commonJsConsumer = `'use strict';
require('reflect-metadata');
const load = require;
${agentBody}`;

const esmConsumer = `import 'reflect-metadata';
${entryPoints.map((entry, index) => `import * as entry${index} from '${entry}';`).join('\n')}
import * as core from 'affordance';
import * as classValidator from 'class-validator';
import * as inversify from 'inversify';

const modules = {
  affordance: core,
  'class-validator': classValidator,
  inversify,
  ${entryPoints.map((entry, index) => `'${entry}': entry${index}`).join(',\n  ')},
};
const load = (name) => modules[name];
${agentBody}`;
