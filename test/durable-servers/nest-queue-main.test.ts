/**
 * `npm run example:nest-queued` as a user runs it: the example compiled, a real
 * redis-server, the example's main starting its own worker process. The demo
 * questions are enqueued (202), answered by the worker process, and the worker
 * process is gone afterwards. Without a Redis server it says so in one line
 * and exits with code 1 (it used to hang printing connection-error stacks).
 */
import { execFile, execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { describeWithRedis } from '../support/servers/describe-with-servers.js';
import { type RedisServer, startRedis } from '../support/servers/redis-server.js';

const root = process.cwd();
const tsc = join(root, 'node_modules/typescript/bin/tsc');
// Into .build, as `npm run example:nest-queued` does: the examples find their files from there.
const built = join(root, '.build');

beforeAll(() => {
  // The examples import the package by name: build it, then compile the examples beside the
  // project, as `npm run build:examples` does (build mode: a project already up to date is not rebuilt).
  execFileSync(process.execPath, [tsc, '-b', 'tsconfig.build.json', 'tsconfig.run.json'], {
    cwd: root,
    stdio: 'pipe',
  });
}, 180_000);

/** A port of 127.0.0.1 nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the nest example in queued mode, without a Redis server', () => {
  it('prints one line saying what to start and exits with code 1, at once', async () => {
    const port = await closedPort();
    const url = `redis://127.0.0.1:${port}`;
    const started = Date.now();
    const outcome = await promisify(execFile)(
      process.execPath,
      [join(built, 'examples/nest-service/queued-main.js')],
      { cwd: root, env: { ...process.env, AFFORDANCE_REDIS_URL: url }, timeout: 20_000 },
    ).then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (error: unknown) => error as { code: number | null; stdout: string; stderr: string },
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toBe(
      `No Redis server answers at ${url}: start one (\`redis-server\`; Debian: apt-get install redis-server), or set AFFORDANCE_REDIS_URL to yours.\n`,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);
});

describeWithRedis('the nest example in queued mode, as a command', () => {
  let redis: RedisServer;

  beforeAll(async () => {
    redis = await startRedis();
  }, 60_000);

  afterAll(async () => {
    await redis.stop();
  });

  it('enqueues the demo questions and prints what its worker process answered', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(built, 'examples/nest-service/queued-main.js')],
      { cwd: root, env: { ...process.env, AFFORDANCE_REDIS_URL: redis.url }, timeout: 60_000 },
    );
    const lines = stdout.trim().split('\n');
    const workerPid = Number(/^Worker process (\d+) takes jobs/.exec(lines[0] ?? '')?.[1]);
    expect(workerPid).toBeGreaterThan(0);
    expect(
      lines
        .filter((line) => line.startsWith('POST /agent/jobs'))
        .map((line) => line.includes('→ 202')),
    ).toEqual([true, true, true]);
    const answers = lines.filter((line) => line.startsWith('GET /agent/jobs/'));
    expect(answers).toHaveLength(3);
    expect(answers.join('\n')).toMatch(/\(c-1001\) → completed: .*"resolution":"answered"/);
    expect(answers.join('\n')).toMatch(/\(c-2002\) → completed: .*"resolution":"ticket_opened"/);
    // The worker process was stopped with the example.
    expect(() => process.kill(workerPid, 0)).toThrow();
  }, 90_000);
});
