/**
 * Worker throughput (`npm run bench -- durable-throughput`): 60 evaluation jobs
 * of the desk (two model requests of a fixed 20 ms latency, two tool calls,
 * the session committed to Redis at each checkpoint) through BullMQ, with 1,
 * 2 and 4 worker processes (concurrency 1 each) against a redis-server started
 * here. Three rounds, the worker counts in another order each round; reports
 * evaluations per second, the share of the ideal (workers × one evaluation per
 * two model latencies), and the scaling per added worker against one worker
 * (goal of issue 38: ≥ 0.8 per added worker up to the cores available).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { QueueEvents } from 'bullmq';

import { EvaluationQueue } from 'affordance/bullmq';

import { startRedis } from '../support/servers/redis-server.js';

const here = dirname(fileURLToPath(import.meta.url));
const jobs = 60;
const latencyMs = 20;
const workerCounts = [1, 2, 4] as const;
const rounds = 3;

async function startWorkers(
  count: number,
  redisPort: number,
  queue: string,
): Promise<ChildProcess[]> {
  const children: ChildProcess[] = [];
  for (let i = 0; i < count; i++) {
    const child = spawn(process.execPath, [join(here, 'durable-worker.js')], {
      env: {
        ...process.env,
        REDIS_PORT: String(redisPort),
        QUEUE: queue,
        MODEL_LATENCY_MS: String(latencyMs),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) resolve();
      });
      child.once('exit', (code) => {
        reject(new Error(`worker exited with ${String(code)}`));
      });
    });
    children.push(child);
  }
  return children;
}

/** Evaluations per second of `jobs` jobs through `workers` worker processes (started before the clock). */
async function evaluationsPerSecond(
  redisPort: number,
  workers: number,
  run: string,
): Promise<number> {
  const name = `bench-throughput-${run}-${workers}`;
  const connection = { host: '127.0.0.1', port: redisPort, maxRetriesPerRequest: null };
  const queue = new EvaluationQueue({ connection, queueName: name });
  const events = new QueueEvents(name, { connection });
  await events.waitUntilReady();
  const children = await startWorkers(workers, redisPort, name);
  let done = 0;
  let failed = 0;
  const finished = new Promise<void>((resolve, reject) => {
    events.on('completed', ({ returnvalue }) => {
      // Every job must end with the model's answer, not merely leave the queue.
      if (!JSON.stringify(returnvalue).includes('Noted.')) failed += 1;
      done += 1;
      if (done === jobs) resolve();
    });
    events.on('failed', ({ failedReason }) => {
      reject(new Error(`a job failed: ${failedReason}`));
    });
  });
  const start = process.hrtime.bigint();
  for (let i = 0; i < jobs; i++) {
    await queue.enqueue({ prompt: 'desk', sessionId: `${name}-${i}` });
  }
  await finished;
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (failed > 0) throw new Error(`${failed} jobs completed without the model's answer`);
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
  await events.close();
  await queue.close();
  return jobs / seconds;
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export default async function run(): Promise<void> {
  const redis = await startRedis();
  const rates = new Map<number, number[]>(workerCounts.map((count) => [count, []]));
  try {
    for (let round = 0; round < rounds; round++) {
      const order = [...workerCounts.slice(round), ...workerCounts.slice(0, round)];
      for (const workers of order) {
        rates.get(workers)?.push(await evaluationsPerSecond(redis.port, workers, String(round)));
      }
    }
  } finally {
    await redis.stop();
  }
  const cores = availableParallelism();
  const one = median(rates.get(1) ?? []);
  console.log(
    `\nWorker throughput: ${jobs} jobs, model latency ${latencyMs} ms per request, sessions in Redis, ${cores} cores (median of ${rounds} rounds)`,
  );
  console.log('  workers  evaluations/s  rounds                  of ideal  scaling per worker');
  for (const workers of workerCounts) {
    const values = rates.get(workers) ?? [];
    const rate = median(values);
    const ideal = workers / ((2 * latencyMs) / 1000);
    const scaling = rate / (workers * one);
    const goal =
      workers === 1
        ? ''
        : workers <= cores
          ? `  goal ≥ 0.80: ${scaling >= 0.8 ? 'met' : 'not met'}`
          : '  (more workers than cores)';
    console.log(
      `  ${String(workers).padStart(7)}  ${rate.toFixed(1).padStart(13)}  ${values
        .map((value) => value.toFixed(1))
        .join(' / ')
        .padEnd(
          22,
        )}  ${((rate / ideal) * 100).toFixed(0).padStart(6)} %  ${workers === 1 ? '' : `×${scaling.toFixed(2)}`}${goal}`,
    );
  }
}
