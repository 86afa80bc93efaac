/**
 * Kills a worker process (SIGKILL) in the middle of an evaluation job, before,
 * during and after a tool call, lets a second worker process take the job over,
 * and proves from the store's contents and from the handlers' own effects that
 * nothing committed was lost and no committed tool call ran twice. Real
 * redis-server (BullMQ and the session store), real worker processes.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';

import { PromptExecuted, ToolInvoked } from 'affordance';
import { EvaluationQueue } from 'affordance/bullmq';
import { RedisSessionStore, SessionCodec, SessionPersistence } from 'affordance/durable';

import { type RedisServer, startRedis } from '../support/servers/redis-server.js';
import { describeWithRedis } from '../support/servers/describe-with-servers.js';

const root = process.cwd();
const KEY_PREFIX = 'crash:';

/** Stands for the worker's params class when this process reads the stored session. */
class OrderParams {
  orderId = '';
}

let redis: RedisServer;
let built: string;
let client: Redis;
let queue: EvaluationQueue;
let events: QueueEvents;
/** One queue per test, so a worker left from one test never takes another's job. */
let queueName = '';
const workers = new Set<ChildProcess>();

/** Polls `check` every 25 ms until it holds; fails naming `what` after 20 s. */
async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Starts a worker process; resolves once it takes jobs. */
async function startWorker(effects: string, hangAt = ''): Promise<ChildProcess> {
  const script = join(built, 'test/durable-servers/fixtures/crash-worker.js');
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: {
      ...process.env,
      REDIS_PORT: String(redis.port),
      QUEUE: queueName,
      KEY_PREFIX,
      EFFECTS_FILE: effects,
      HANG_AT: hangAt,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  workers.add(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready')) resolve();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      reject(new Error(`worker exited (${String(code)}) before it was ready:\n${output}`));
    });
  });
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  workers.delete(child);
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  workers.delete(child);
}

function effectsOf(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
}

/** What the store holds for `sessionId`, read back through a fresh persistence. */
async function stored(sessionId: string) {
  const persistence = new SessionPersistence({
    store: new RedisSessionStore({ client, keyPrefix: KEY_PREFIX }),
    // The worker's params class, read back under its stored name.
    codec: new SessionCodec({ classes: [{ name: 'OrderParams', type: OrderParams }] }),
  });
  const durable = await persistence.open(sessionId, { create: false });
  return {
    calls: durable.session.view
      .slice(ToolInvoked)
      .all()
      .map((event) => [event.callId, event.outcome, event.renderedMessage]),
    executed: durable.session.view.slice(PromptExecuted).all(),
    records: durable.records,
  };
}

describeWithRedis('evaluation jobs survive a killed worker', () => {
  beforeAll(async () => {
    redis = await startRedis();
    // Inside the project, so the compiled worker resolves the project's node_modules.
    mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
    built = mkdtempSync(join(root, 'node_modules/.cache/affordance-crash-'));
    execFileSync(
      process.execPath,
      [
        join(root, 'node_modules/typescript/bin/tsc'),
        '-p',
        'test/durable-servers/fixtures/tsconfig.json',
        '--outDir',
        built,
        // Emit only: `npm run typecheck` type-checks the fixtures (tsconfig.json includes test/).
        '--noCheck',
      ],
      { cwd: root, stdio: 'pipe' },
    );
    client = new Redis({ host: '127.0.0.1', port: redis.port });
  }, 120_000);

  beforeEach(async () => {
    queueName = `crash-${expect.getState().currentTestName?.split(' ').at(-1) ?? 'test'}-${Date.now()}`;
    const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };
    queue = new EvaluationQueue({ connection, queueName });
    events = new QueueEvents(queueName, { connection });
    await events.waitUntilReady();
  });

  afterEach(async () => {
    for (const child of workers) child.kill('SIGKILL');
    workers.clear();
    await events.close();
    await queue.close();
  });

  afterAll(async () => {
    await client.quit();
    await redis.stop();
    rmSync(built, { recursive: true, force: true });
  });

  /** Runs one job: worker A stops at `hangAt` and is killed once `killWhen` holds; worker B finishes. */
  async function crashAndRecover(
    name: string,
    hangAt: string,
    killWhen: (effects: string[]) => boolean,
  ) {
    const dir = mkdtempSync(join(built, `${name}-`));
    const effects = join(dir, 'effects.log');
    writeFileSync(effects, '');
    const sessionId = `session-${name}`;
    const first = await startWorker(effects, hangAt);
    const jobId = await queue.enqueue({ prompt: 'orders', sessionId, input: 'Ship order A-1.' });
    await until(`worker A to reach ${hangAt}`, () => killWhen(effectsOf(effects)));
    await kill(first);
    const second = await startWorker(effects);
    const job = await queue.queue.getJob(jobId);
    if (job === undefined) throw new Error(`job ${jobId} is gone`);
    const result = await job.waitUntilFinished(events, 30_000);
    await stop(second);
    return { result, effects: effectsOf(effects), first, second, sessionId, jobId };
  }

  it('killed during a tool call: the committed call is not run again, the interrupted one is recorded unknown', async () => {
    const run = await crashAndRecover('during', 'ship', (lines) =>
      lines.some((line) => line.startsWith('ship-start')),
    );
    expect(run.result).toMatchObject({ status: 'completed', text: 'Done after 2 results.' });
    // Worker B ran no handler at all: charge was committed, ship was interrupted.
    expect(run.effects).toEqual([`charge A-1 ${run.first.pid}`, `ship-start A-1 ${run.first.pid}`]);
    const store = await stored(run.sessionId);
    expect(store.calls.map(([callId, outcome]) => [callId, outcome])).toEqual([
      ['c1', 'success'],
      ['c2', 'unknown'],
    ]);
    expect(String(store.calls[1]?.[2])).toMatch(/may or may not have taken effect/);
    expect(store.executed).toHaveLength(1);
    expect(store.records[`affordance.evaluation:${run.jobId}`]).toMatchObject({
      status: 'completed',
    });
  }, 60_000);

  it('killed after both tool calls, during the next model request: nothing runs twice', async () => {
    const run = await crashAndRecover('after', 'request-1', (lines) =>
      lines.some((line) => line.startsWith('request-1')),
    );
    expect(run.result).toMatchObject({ status: 'completed', text: 'Done after 2 results.' });
    const pidA = run.first.pid ?? 0;
    expect(run.effects).toEqual([
      `charge A-1 ${pidA}`,
      `ship-start A-1 ${pidA}`,
      `ship-end A-1 ${pidA}`,
      `request-1 ${pidA}`,
    ]);
    const store = await stored(run.sessionId);
    expect(store.calls.map(([callId, outcome]) => [callId, outcome])).toEqual([
      ['c1', 'success'],
      ['c2', 'success'],
    ]);
    expect(store.executed).toHaveLength(1);
  }, 60_000);

  it('killed before any tool call, during the first model request: the second worker runs each call once', async () => {
    const run = await crashAndRecover('before', 'request-0', (lines) =>
      lines.some((line) => line.startsWith('request-0')),
    );
    expect(run.result).toMatchObject({ status: 'completed', text: 'Done after 2 results.' });
    const pidB = run.second.pid ?? 0;
    expect(run.effects).toEqual([
      `request-0 ${run.first.pid ?? 0}`,
      `charge A-1 ${pidB}`,
      `ship-start A-1 ${pidB}`,
      `ship-end A-1 ${pidB}`,
    ]);
    const store = await stored(run.sessionId);
    expect(store.calls.map(([callId, outcome]) => [callId, outcome])).toEqual([
      ['c1', 'success'],
      ['c2', 'success'],
    ]);
  }, 60_000);
});
