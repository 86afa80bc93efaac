/**
 * The nest example in queued mode (`npm run example:nest-queued`, needs a Redis
 * server: `AFFORDANCE_REDIS_URL`, default redis://127.0.0.1:6379; without one
 * it says so in one line and exits with code 1). It starts a
 * worker process (queued-worker-main.ts), serves `POST /agent/jobs` and
 * `GET /agent/jobs/:jobId`, sends the demo questions, polls each job until it
 * ends and prints what the worker answered; then stops the worker (it finishes
 * its running job first) and the service.
 */
import 'reflect-metadata';

import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Redis } from 'ioredis';

import { EvaluationQueue } from 'affordance/bullmq';
import { RedisSessionStore } from 'affordance/durable';

import { createApp, demoQuestions } from './main.js';
import { stateSecret } from './state-secret.js';
import type { JobView } from './queued-agent-controller.js';
import { redisUrlOf, requireRedis } from './require-redis.js';

const here = dirname(fileURLToPath(import.meta.url));

/** Starts the worker process and resolves once it takes jobs. */
async function startWorkerProcess(redisUrl: string, queueName: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(here, 'queued-worker-main.js')], {
    env: {
      ...process.env,
      AFFORDANCE_REDIS_URL: redisUrl,
      AFFORDANCE_QUEUE: queueName,
      // The worker resumes the evaluations this process saves: it signs and checks them with the same secret.
      AFFORDANCE_STATE_SECRET: stateSecret(),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('worker ready')) resolve();
    });
    child.once('exit', (code) => {
      reject(new Error(`the worker process exited (${String(code)}) before it was ready`));
    });
  });
  return child;
}

/** Polls `GET /agent/jobs/:jobId` until the job ends. */
async function waitForJob(url: string, jobId: string): Promise<JobView> {
  for (;;) {
    const view = (await (await fetch(`${url}/agent/jobs/${jobId}`)).json()) as JobView;
    if (view.state === 'completed' || view.state === 'failed') return view;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs the queued demo and prints each step with `print`. */
export async function runQueued(print: (line: string) => void = console.log): Promise<JobView[]> {
  const redisUrl = redisUrlOf(process.env);
  const parsed = new URL(redisUrl);
  const connection = { host: parsed.hostname, port: Number(parsed.port || '6379') };
  const queueName = `support-${process.pid}`;
  const client = new Redis(connection);
  const queue = new EvaluationQueue({
    connection: { ...connection, maxRetriesPerRequest: null },
    queueName,
  });
  const worker = await startWorkerProcess(redisUrl, queueName);
  print(`Worker process ${String(worker.pid)} takes jobs from ${redisUrl} (queue ${queueName})`);
  const app = await createApp({
    offline: true,
    queued: { sessionStore: new RedisSessionStore({ client }), evaluationQueue: queue },
  });
  try {
    await app.listen(0, '127.0.0.1');
    const url = await app.getUrl();
    const jobs = await Promise.all(
      demoQuestions.map(async (question) => {
        const response = await fetch(`${url}/agent/jobs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-customer-id': question.customerId },
          body: JSON.stringify({ message: question.message }),
        });
        const queued = (await response.json()) as { jobId: string; sessionId: string };
        print(
          `POST /agent/jobs (${question.customerId}) → ${response.status}, job ${queued.jobId} on session ${queued.sessionId}`,
        );
        return queued.jobId;
      }),
    );
    const views = await Promise.all(jobs.map((jobId) => waitForJob(url, jobId)));
    views.forEach((view, index) => {
      const result = view.result;
      const answer =
        result?.status === 'completed'
          ? JSON.stringify(result.output)
          : result?.status === 'interrupted'
            ? `waiting for approval of ${result.pending.map((call) => call.name).join(', ')}`
            : `failed: ${view.failedReason ?? 'unknown'}`;
      print(
        `GET /agent/jobs/${view.jobId} (${demoQuestions[index]?.customerId ?? ''}) → ${view.state}: ${answer}`,
      );
    });
    return views;
  } finally {
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill('SIGTERM');
    await exited;
    await app.close();
    await queue.close();
    await client.quit();
  }
}

if (
  process.argv[1] !== undefined &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
) {
  await requireRedis(process.env);
  await runQueued();
}
