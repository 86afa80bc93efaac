/**
 * The packed package works for a consumer, from CommonJS (`require`, through
 * Node's require(esm), Node >= 20.19) and from ES modules.
 *
 * How the consumer is set up, offline:
 * - The package is packed as from a fresh clone, without touching the working
 *   tree (`packAffordance`, test/support/pack-affordance.ts): the tarball is
 *   what `npm publish` would upload (same `files` and `exports`), its `dist/`
 *   built by the `prepack` script.
 * - The tarball is unpacked into `consumer/node_modules/affordance`, where
 *   `npm install <tarball>` puts it. npm itself cannot install it here: its
 *   dependencies are not in the npm cache and the test runs offline. They are
 *   linked instead from this project's `node_modules` (the versions the lock
 *   file pins), so the consumer's `require('inversify')` and affordance's are
 *   the same module, as with a real install.
 * - Each consumer file runs in a plain `node` (no jest, no NODE_OPTIONS).
 * - A newcomer's project (`newcomer/`, `"type": "module"`) is made from the
 *   packed Getting started page alone: its tsconfig and its first TypeScript
 *   block, compiled by tsc and run by node, print what the page shows.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { packAffordance, repo, runPlain as run } from '../support/pack-affordance.js';

const entryPoints = [
  'affordance/provider',
  'affordance/testing',
  'affordance/openai',
  'affordance/anthropic',
  'affordance/planning',
  'affordance/filesystem',
  'affordance/nest',
];

let work: string;
let consumer: string;
let packedFiles: string[];
let newcomer: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'affordance-consumer-'));
  const packed = packAffordance(work);
  const tarball = packed.tarball;
  packedFiles = [...packed.files];

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
  writeFileSync(join(consumer, 'typed.ts'), typedConsumer);
  writeFileSync(join(consumer, 'hooks.mjs'), hooksConsumer);
  writeFileSync(join(consumer, 'sync-hooks.mjs'), syncHooksConsumer);
  writeFileSync(join(consumer, 'nest-hooks.mjs'), nestHooksConsumer);
  writeFileSync(join(consumer, 'mcp-hooks.mjs'), mcpHooksConsumer);
  writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(typedConsumerConfig));

  newcomer = join(work, 'newcomer');
  mkdirSync(join(newcomer, 'src'), { recursive: true });
  symlinkSync(modules, join(newcomer, 'node_modules'));
  writeFileSync(
    join(newcomer, 'package.json'),
    JSON.stringify({ name: 'my-agent', version: '1.0.0', type: 'module', private: true }),
  );
}, 240_000);

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
  it('holds the entry points its prepack script built from a fresh clone, and no sources or tests', () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        'package.json',
        'dist/index.js',
        'dist/index.d.ts',
        'migrations/postgres/0001_sessions.sql',
        ...entryPoints.map((entry) => `dist/${entry.slice('affordance/'.length)}/index.js`),
      ]),
    );
    expect(packedFiles.filter((file) => !file.startsWith('dist/'))).toEqual(
      expect.arrayContaining(['package.json']),
    );
    expect(packedFiles).not.toContain('dist/.tsbuildinfo'); // the build's bookkeeping stays home
    expect(packedFiles.some((file) => file.startsWith('src/') || file.startsWith('test/'))).toBe(
      false,
    );
  });

  it('carries every guide as markdown with its code inlined, and an llms.txt index of them', () => {
    const guides = readdirSync(join(repo, 'docs/guide')).filter((file) => file.endsWith('.md'));
    expect(guides.length).toBeGreaterThan(10);
    expect(packedFiles).toEqual(
      expect.arrayContaining(['dist/docs/llms.txt', ...guides.map((file) => `dist/docs/${file}`)]),
    );
    const docs = join(consumer, 'node_modules/affordance/dist/docs');
    const index = readFileSync(join(docs, 'llms.txt'), 'utf8');
    for (const file of guides) {
      expect(index).toContain(`](${file}): `);
      expect(readFileSync(join(docs, file), 'utf8')).not.toMatch(/^<<<|<!--@include/m);
    }
    for (const entry of ['affordance', ...entryPoints]) expect(index).toContain(`\`${entry}\``);
  });

  it("runs the Getting started page's own tsconfig and quickstart in a fresh ES module project", () => {
    const page = readFileSync(
      join(consumer, 'node_modules/affordance/dist/docs/getting-started.md'),
      'utf8',
    );
    const tsconfig = /```json\n([\s\S]*?)```/.exec(page)?.[1];
    const quickstart = /```ts\n([\s\S]*?)```/.exec(page)?.[1];
    const shown = /```text\n([\s\S]*?)```/.exec(page)?.[1];
    expect([tsconfig, quickstart, shown].every((block) => block !== undefined)).toBe(true);
    writeFileSync(join(newcomer, 'tsconfig.json'), tsconfig ?? '');
    writeFileSync(join(newcomer, 'src/main.ts'), quickstart ?? '');
    run(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', '.'], newcomer);
    expect(run(process.execPath, ['dist/main.js'], newcomer)).toBe(shown);
  });

  it('can be required from CommonJS: a ToolDefinition evaluated with affordance/testing', () => {
    const output = run(process.execPath, ['agent.cjs'], consumer);
    expect(JSON.parse(output)).toEqual({
      ...expectedRun,
      entryPoints: entryPoints.map(() => 'object'),
    });
  });

  it('type-checks a TypeScript consumer against its declarations alone', () => {
    const output = run(
      process.execPath,
      [join(repo, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
      consumer,
    );
    expect(output).toBe('');
  });

  it("leaves the application's promises untracked once its handlers have settled", () => {
    // On Node 20 the AsyncLocalStorage behind call frames turns on promise hooks for the whole
    // process while enabled; inside a promise reaction executionAsyncId() is 0 only when they are
    // off. Each check is made a turn of the event loop after the evaluation.
    const output = run(process.execPath, ['hooks.mjs'], consumer);
    expect(JSON.parse(output)).toEqual({
      before: false,
      after: false,
      afterFailure: false,
      texts: ['Done.', 'Done.'],
      outcomes: ['success', 'success', 'success', 'failure'],
    });
  });

  it('runs a handler declared synchronous without turning promise hooks on', () => {
    // A promise made inside the handler runs its reaction with executionAsyncId() 0 only when the
    // hooks were off as it was made. The undeclared handler, run second, shows the check can fail.
    const output = run(process.execPath, ['sync-hooks.mjs'], consumer);
    expect(JSON.parse(output)).toEqual({
      synchronous: false,
      undeclared: true,
      texts: ['Done.', 'Done.'],
    });
  });

  it("leaves the application's promises untracked once AffordanceService's evaluations and streams have ended", () => {
    // The Nest bridge keeps each evaluation's Nest context in an AsyncLocalStorage, which on Node
    // 20 tracks every promise of the process while enabled. A stream read half-way keeps it (its
    // evaluation goes on between reads): that check shows a tracked promise is seen as one.
    const output = run(process.execPath, ['nest-hooks.mjs'], consumer);
    expect(JSON.parse(output)).toEqual({
      before: false,
      afterEvaluate: false,
      streamHalfRead: true,
      afterStream: false,
      afterReturn: false,
      afterCancel: false,
      afterCallTool: false,
      texts: ['Done.', 'Done.'],
      probes: ['probed', 'probed', 'probed'],
    });
  });

  it("leaves the application's promises untracked between the MCP calls an McpHttpHandler serves", () => {
    // The handler keeps the HTTP request of each call in an AsyncLocalStorage while its response
    // is open: a promise made while a call's options are computed is tracked, one after is not.
    const output = run(process.execPath, ['mcp-hooks.mjs'], consumer);
    expect(JSON.parse(output)).toEqual({
      before: false,
      duringCall: true,
      afterCall: false,
      afterSecondCall: false,
      callers: ['ada', 'ada'],
      texts: ['OK\n\nprobed', 'OK\n\nprobed'],
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

/**
 * A TypeScript consumer compiled against the published declarations only (with
 * `stripInternal`): the members the runtime adds to `ToolContext` are visible
 * to a tool, and an adapter can be written from `affordance/provider`.
 */
const typedConsumer = `import 'reflect-metadata';
import { Container } from 'inversify';
import { installAffordance, Prompt, ToolDefinition, ToolResult, type ToolContext } from 'affordance';
import {
  providerCapabilities,
  ProviderAdapter,
  type ProviderCapabilities,
  type ProviderRequest,
  type ProviderTurn,
} from 'affordance/provider';
import { createTestRuntime, ManualClock } from 'affordance/testing';
import { FilesystemToolsSection } from 'affordance/filesystem';

class Silent extends ProviderAdapter {
  override readonly name = 'silent';
  override readonly capabilities: ProviderCapabilities = providerCapabilities();
  override request(request: ProviderRequest): Promise<ProviderTurn> {
    return Promise.resolve({ text: request.prompt.label });
  }
}

const child = new Prompt({ ns: 'consumer', key: 'child', sections: [FilesystemToolsSection] });
export const nest = new ToolDefinition({
  name: 'nest',
  description: 'Runs the child prompt.',
  handler: async (_params: unknown, context: ToolContext) => {
    const response = await context.evaluate(child, { session: context.session, deadline: context.deadline });
    return ToolResult.ok(response.text ?? '');
  },
});
const runtime = installAffordance(new Container(), { clock: new ManualClock() });
export const answer: Promise<string | null> = runtime
  .evaluate(child, { adapter: new Silent() })
  .then((response) => response.text);
export const scripted = createTestRuntime({ script: [{ text: 'done' }] }).evaluate(child);
`;

const typedConsumerConfig = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    skipLibCheck: false,
    types: ['node'],
  },
  files: ['typed.ts'],
};

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
const { container, evaluate } = createTestRuntime({
  script: [{ toolCalls: [{ name: 'echo', arguments: { text: 'hello' } }] }, { text: 'Echoed.' }],
});
const session = new Session();
evaluate(prompt, { session, input: 'hello' }).then((response) => {
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

/**
 * Consumer code: whether promises made now are tracked (promise hooks on),
 * asked a turn of the event loop later; inside a promise reaction
 * `executionAsyncId()` is 0 only when the hooks are off.
 */
const trackedSource = `async function tracked() {
  await new Promise((resolve) => setImmediate(resolve));
  await null;
  return executionAsyncId() !== 0;
}`;

/**
 * Runs tools that answer at once, after a timer and by failing, then reports
 * whether promises are still tracked (a plain process: nothing else enables
 * async hooks).
 */
const hooksConsumer = `import 'reflect-metadata';
import { executionAsyncId } from 'node:async_hooks';
import { MarkdownSection, Prompt, Session, ToolDefinition, ToolInvoked, ToolResult } from 'affordance';
import { createTestRuntime } from 'affordance/testing';

// Asked a turn of the event loop later: calls run back to back in one turn may keep tracking on
// until that turn ends.
${trackedSource}
const tools = [
  new ToolDefinition({ name: 'now', description: 'Answers at once.', handler: () => ToolResult.ok('now') }),
  new ToolDefinition({
    name: 'later',
    description: 'Answers after a timer.',
    handler: async () => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      return ToolResult.ok('later');
    },
  }),
  new ToolDefinition({
    name: 'fails',
    description: 'Throws.',
    handler: async () => {
      await null;
      throw new Error('no');
    },
  }),
];
const prompt = new Prompt({
  ns: 'consumer',
  key: 'hooks',
  sections: [new MarkdownSection({ key: 'work', title: 'Work', template: 'Work.', tools })],
});
const session = new Session();
const before = await tracked();
const first = await createTestRuntime({
  script: [{ toolCalls: [{ name: 'now' }, { name: 'later' }, { name: 'now' }] }, { text: 'Done.' }],
}).evaluate(prompt, { session });
const after = await tracked();
const second = await createTestRuntime({
  script: [{ toolCalls: [{ name: 'fails' }] }, { text: 'Done.' }],
}).evaluate(prompt, { session });
const afterFailure = await tracked();
console.log(JSON.stringify({
  before,
  after,
  afterFailure,
  texts: [first.text, second.text],
  outcomes: session.slice(ToolInvoked).all().map((call) => call.outcome),
}));
`;

/**
 * An evaluation, a stream and a direct tool call through `AffordanceService` in
 * a Nest application context, each followed by a check whether promises are
 * still tracked (a plain process: nothing else enables async hooks). The
 * module is declared without decorator syntax, as plain JavaScript can.
 */
const nestHooksConsumer = `import 'reflect-metadata';
import { executionAsyncId } from 'node:async_hooks';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MarkdownSection, Prompt, ToolDefinition, ToolResult } from 'affordance';
import { AffordanceModule, AffordanceService } from 'affordance/nest';
import { ProviderAdapter, providerCapabilities } from 'affordance/provider';

${trackedSource}
class OneCall extends ProviderAdapter {
  name = 'one-call';
  capabilities = providerCapabilities();
  request(request) {
    return Promise.resolve(
      request.turn === 0
        ? { toolCalls: [{ callId: 'c' + request.turn, name: 'probe', arguments: '{}' }] }
        : { text: 'Done.' },
    );
  }
}
const probe = new ToolDefinition({
  name: 'probe',
  description: 'Answers at once.',
  synchronous: true,
  handler: () => ToolResult.ok('probed'),
});
const prompt = new Prompt({
  ns: 'consumer',
  key: 'nest-hooks',
  sections: [new MarkdownSection({ key: 'work', title: 'Work', template: 'Work.', tools: [probe] })],
});
class AppModule {}
Module({ imports: [AffordanceModule.forRoot({ adapter: () => new OneCall(), prompts: [prompt] })] })(AppModule);
const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
const affordance = app.get(AffordanceService);

const before = await tracked();
const evaluated = await affordance.evaluate(prompt, { input: 'Go.' });
const afterEvaluate = await tracked();
const iterator = affordance.stream(prompt, { input: 'Go.' })[Symbol.asyncIterator]();
const parts = [(await iterator.next()).value];
const streamHalfRead = await tracked();
for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) parts.push(next.value);
const afterStream = await tracked();
const returned = affordance.stream(prompt, { input: 'Go.' })[Symbol.asyncIterator]();
await returned.next();
await returned.return();
const afterReturn = await tracked();
await affordance.stream(prompt, { input: 'Go.' }).cancel();
const afterCancel = await tracked();
const called = await affordance.callTool(prompt, { callId: 'direct', name: 'probe', arguments: '{}' });
const afterCallTool = await tracked();
await app.close();
const answer = parts.find((part) => part.type === 'answer');
console.log(JSON.stringify({
  before,
  afterEvaluate,
  streamHalfRead,
  afterStream,
  afterReturn,
  afterCancel,
  afterCallTool,
  texts: [evaluated.text, answer?.response.text],
  probes: [
    evaluated.toolCalls[0]?.result.value,
    parts.find((part) => part.type === 'tool-call-end')?.event.result.value,
    called.result.value,
  ],
}));
`;

/**
 * An MCP client calling a tool twice through an \`McpHttpHandler\` on 127.0.0.1,
 * each call followed by a check whether promises are still tracked (a plain
 * process: nothing else enables async hooks).
 */
const mcpHooksConsumer = `import 'reflect-metadata';
import { executionAsyncId } from 'node:async_hooks';
import { createServer } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Container } from 'inversify';
import { installAffordance, MarkdownSection, Prompt, ToolDefinition, ToolResult } from 'affordance';
import { McpHttpHandler, McpToolServer } from 'affordance/mcp';

${trackedSource}
const probe = new ToolDefinition({
  name: 'probe',
  description: 'Answers at once.',
  synchronous: true,
  handler: () => ToolResult.ok('probed'),
});
const prompt = new Prompt({
  ns: 'consumer',
  key: 'mcp-hooks',
  sections: [new MarkdownSection({ key: 'work', title: 'Work', template: 'Work.', tools: [probe] })],
});
const callers = [];
let duringCall;
const mcp = new McpHttpHandler(
  new McpToolServer({
    runtime: installAffordance(new Container()),
    prompt,
    callOptions: async (call) => {
      callers.push(call.httpRequest?.headers['x-caller']);
      duringCall ??= await Promise.resolve().then(() => executionAsyncId() !== 0);
      return {};
    },
  }),
);
const server = createServer((req, res) => {
  mcp.handle(req, res).catch((error) => {
    console.error(error);
    res.destroy();
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = new URL('http://127.0.0.1:' + server.address().port + '/mcp');
const before = await tracked();
const client = new Client({ name: 'consumer', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-caller': 'ada' } } }));
const first = await client.callTool({ name: 'probe', arguments: {} });
const afterCall = await tracked();
const second = await client.callTool({ name: 'probe', arguments: {} });
const afterSecondCall = await tracked();
await client.close();
await mcp.close();
server.closeAllConnections();
await new Promise((resolve) => server.close(resolve));
console.log(JSON.stringify({
  before,
  duringCall,
  afterCall,
  afterSecondCall,
  callers,
  texts: [first, second].map((result) => result.content.map((part) => part.text).join('')),
}));
`;

/** A tool declared synchronous, then an undeclared one, each checking whether promise hooks are on. */
const syncHooksConsumer = `import 'reflect-metadata';
import { executionAsyncId } from 'node:async_hooks';
import { MarkdownSection, Prompt, ToolDefinition, ToolResult } from 'affordance';
import { createTestRuntime } from 'affordance/testing';

const seen = {};
function probe(name) {
  return () => {
    seen[name] = Promise.resolve().then(() => executionAsyncId() !== 0);
    return ToolResult.ok(name);
  };
}
const tools = [
  new ToolDefinition({ name: 'synchronous', description: 'Declared synchronous.', synchronous: true, handler: probe('synchronous') }),
  new ToolDefinition({ name: 'undeclared', description: 'Not declared.', handler: probe('undeclared') }),
];
const prompt = new Prompt({
  ns: 'consumer',
  key: 'sync-hooks',
  sections: [new MarkdownSection({ key: 'work', title: 'Work', template: 'Work.', tools })],
});
const texts = [];
for (const name of ['synchronous', 'undeclared']) {
  const response = await createTestRuntime({ script: [{ toolCalls: [{ name }] }, { text: 'Done.' }] }).evaluate(prompt);
  texts.push(response.text);
}
console.log(JSON.stringify({ synchronous: await seen.synchronous, undeclared: await seen.undeclared, texts }));
`;
