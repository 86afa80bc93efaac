/**
 * The worker process of the nest example's queued mode (started by
 * queued-main.ts): runs the support agent's jobs from Redis
 * (`AFFORDANCE_REDIS_URL`) on sessions stored there. Prints `worker ready`,
 * and on SIGTERM finishes its running job before it exits.
 */
import 'reflect-metadata';

import { Redis } from 'ioredis';

import { RedisSessionStore } from 'affordance/durable';

import { startSupportWorker } from './queued-worker.js';
import { redisUrlOf, requireRedis } from './require-redis.js';

await requireRedis(process.env);
const url = new URL(redisUrlOf(process.env));
const connection = { host: url.hostname, port: Number(url.port || '6379') };
const client = new Redis(connection);
const worker = await startSupportWorker({
  connection,
  sessionStore: new RedisSessionStore({ client }),
  queueName: process.env['AFFORDANCE_QUEUE'],
});
process.stdout.write(`worker ready (pid ${process.pid})\n`);
process.on('SIGTERM', () => {
  void worker
    .close()
    .then(() => client.quit())
    .then(() => process.exit(0));
});
