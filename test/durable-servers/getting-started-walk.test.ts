/**
 * The newcomer's walk through the Getting started page, as the page tells it,
 * with the packed package and nothing else: a fresh `npm init -y` project
 * made an ES module package, the page's tsconfig, and the page's TypeScript
 * blocks saved where they say (`// src/<file>.ts` on their first line; the
 * quickstart as `src/main.ts`), compiled by tsc and run by plain `node`:
 *
 * 1. the offline agent prints the transcript the page shows;
 * 2. `src/server.ts` serves a Nest endpoint that streams the evaluation over
 *    server-sent events, read here over HTTP as `curl -N` would;
 * 3. `src/request.ts` pauses for approval in one process, storing the session
 *    in Redis and the signed state in a file, and `src/approve.ts`, a second
 *    process with the same state secret, resumes it.
 *
 * Every printed output is compared with the block the page shows under it.
 * The package comes from test/support/pack-affordance.ts (the tarball
 * `npm publish` would upload, shared with test/hardening/consumer-package);
 * its dependencies are linked from this project's `node_modules` (offline).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
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
import { dirname, join } from 'node:path';

import { packAffordance, repo, runPlain } from '../support/pack-affordance.js';
import { startRedis, type RedisServer } from '../support/servers/redis-server.js';
import { describeWithRedis } from '../support/servers/describe-with-servers.js';

/** The programs the page names, in page order, and the snippet files it shows them from. */
const programs = [
  ['src/server.ts', new URL('../../docs/snippets/getting-started/server.ts', import.meta.url)],
  ['src/desk.ts', new URL('../../docs/snippets/getting-started/desk.ts', import.meta.url)],
  ['src/request.ts', new URL('../../docs/snippets/getting-started/request.ts', import.meta.url)],
  ['src/approve.ts', new URL('../../docs/snippets/getting-started/approve.ts', import.meta.url)],
] as const;

let work: string;
let project: string;
let page: string;
let redis: RedisServer | undefined;
const secret = 'a walk through the getting started page, 32+ characters';

/** The fenced blocks of `language` in the packed page, in order. */
function blocks(language: string): string[] {
  return [...page.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map(
    (match) => match[1] ?? '',
  );
}

/** What the page shows a program prints: the `text` block whose first line the program's output starts with. */
function shownFor(printed: string): string | undefined {
  const first = printed.split('\n')[0] ?? '';
  return blocks('text').find((block) => block.split('\n')[0] === first);
}

/** Runs `node file` in the project, as the page says, with `env` added. */
function node(file: string, env: Record<string, string> = {}): string {
  return runPlain(process.execPath, [file], project, env);
}

describeWithRedis('The Getting started page, followed in a fresh project', () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'affordance-walk-'));
    const { tarball } = packAffordance(work);
    project = join(work, 'my-agent');
    mkdirSync(project);
    // The page's own commands, but `npm install` (offline here: the packed package and linked dependencies instead).
    runPlain('npm', ['init', '-y'], project);
    runPlain('npm', ['pkg', 'set', 'type=module'], project);
    const modules = join(project, 'node_modules');
    mkdirSync(join(modules, 'affordance'), { recursive: true });
    runPlain(
      'tar',
      ['-xzf', tarball, '-C', join(modules, 'affordance'), '--strip-components=1'],
      work,
    );
    for (const entry of readdirSync(join(repo, 'node_modules'))) {
      if (entry.startsWith('.') || entry === 'affordance') continue;
      symlinkSync(join(repo, 'node_modules', entry), join(modules, entry));
    }
    page = readFileSync(join(modules, 'affordance/dist/docs/getting-started.md'), 'utf8');
    redis = await startRedis();
  }, 240_000);

  afterAll(async () => {
    await redis?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('compiles the files the page names with its tsconfig', () => {
    writeFileSync(join(project, 'tsconfig.json'), blocks('json')[0] ?? '');
    const files = blocks('ts');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'src/main.ts'), files[0] ?? '');
    const named = files.flatMap((text) => {
      const path = /^\/\/ (src\/[\w-]+\.ts)\b/.exec(text)?.[1];
      return path === undefined ? [] : [[path, text] as const];
    });
    expect(named.map(([path]) => path)).toEqual(programs.map(([path]) => path));
    // The page shows the snippet files as they are in the repository (the type-check compiles them too).
    for (const [[, shown], [, file]] of named.map(
      (entry, index) => [entry, programs[index]!] as const,
    )) {
      expect(shown).toBe(readFileSync(file, 'utf8'));
    }
    for (const [path, text] of named) {
      mkdirSync(dirname(join(project, path)), { recursive: true });
      writeFileSync(join(project, path), text);
    }
    expect(
      runPlain(
        process.execPath,
        [join(repo, 'node_modules/typescript/bin/tsc'), '-p', '.'],
        project,
      ),
    ).toBe('');
  });

  it('runs the offline agent, printing what the page shows', () => {
    const printed = node('dist/main.js');
    expect(printed).toContain('answer: Tomorrow in Paris');
    expect(printed).toBe(shownFor(printed));
  });

  it('serves the Nest endpoint, streaming the evaluation over server-sent events as the page shows', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0' };
    delete env['NODE_OPTIONS'];
    const server: ChildProcess = spawn(process.execPath, ['dist/server.js'], {
      cwd: project,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      let url: string | undefined;
      while (url === undefined) {
        if (server.exitCode !== null) throw new Error(`src/server.ts exited:\n${output}`);
        url = /Listening on (http:\/\/\S+)/.exec(output)?.[1];
        if (url === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const response = await fetch(`${url}/weather/stream?q=Weather%20in%20Paris%3F`);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const body = await response.text(); // Nest ends the response when the evaluation ends
      expect(body).toContain('"tool":"get_forecast","outcome":"success"');
      expect(body).toContain('"done":true');
      const shown = blocks('text').find((block) => block.startsWith('id: '));
      expect(body.trimStart()).toBe(shown);
    } finally {
      server.kill('SIGTERM');
      if (server.exitCode === null) await once(server, 'exit');
    }
  });

  it('pauses for approval in one process and resumes in another, with the session in Redis', () => {
    const env = {
      REDIS_URL: redis?.url ?? '',
      AFFORDANCE_STATE_SECRET: secret,
    };
    const requested = node('dist/request.js', env);
    expect(requested).toContain('waiting for approval: refund_order');
    expect(requested).toBe(shownFor(requested));
    expect(JSON.parse(readFileSync(join(project, 'approval.json'), 'utf8'))).toHaveProperty(
      'pending',
    );

    const approved = node('dist/approve.js', env);
    expect(approved).toContain('refund_order: Refunded $120 on A-1042.');
    expect(approved).toBe(shownFor(approved));
  });

  it('refuses the same state a second time, and a state signed with another secret', () => {
    const env = { REDIS_URL: redis?.url ?? '' };
    let again = '';
    try {
      node('dist/approve.js', { ...env, AFFORDANCE_STATE_SECRET: secret });
    } catch (error) {
      again = (error as Error).message;
    }
    let forged = '';
    try {
      node('dist/approve.js', { ...env, AFFORDANCE_STATE_SECRET: `another ${secret}` });
    } catch (error) {
      forged = (error as Error).message;
    }
    expect(again).toContain('EvaluationStateError');
    expect(again).toContain('the state is stale: session customer-42 changed');
    expect(forged).toContain('EvaluationStateError');
    expect(forged).toContain('signed with another stateSecret');
  });
});
