/**
 * `npm run example:nest-queued` as a user runs it: the example compiled, a real
 * redis-server, the example's main starting its own worker process. The demo
 * questions are enqueued (202), answered by the worker process, and the worker
 * process is gone afterwards.
 */
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { describeWithRedis } from '../support/servers/describe-with-servers.js';
import { type RedisServer, startRedis } from '../support/servers/redis-server.js';

const root = process.cwd();
const tsc = join(root, 'node_modules/typescript/bin/tsc');

describeWithRedis('the nest example in queued mode, as a command', () => {
  let redis: RedisServer;
  let built: string;

  beforeAll(async () => {
    redis = await startRedis();
    // The examples import the package by name: build it, then compile the examples beside the project.
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
      cwd: root,
      stdio: 'pipe',
    });
    // Into .build, as `npm run example:nest-queued` does: the examples find their files from there.
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.run.json'], { cwd: root, stdio: 'pipe' });
    built = join(root, '.build');
  }, 180_000);

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
