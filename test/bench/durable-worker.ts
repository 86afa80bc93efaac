/**
 * One worker process of the durable benchmark (durable.bench.ts): runs the
 * desk's evaluation jobs from Redis on sessions stored in Redis, with a model
 * of fixed latency (MODEL_LATENCY_MS). Prints `ready` once it takes jobs and
 * closes gracefully on SIGTERM.
 */
import 'reflect-metadata';

import { Container } from 'inversify';
import { Redis } from 'ioredis';

import { installAffordance } from 'affordance';
import { createEvaluationWorker } from 'affordance/bullmq';
import { RedisSessionStore, SessionCodec, SessionPersistence } from 'affordance/durable';
import { ProviderAdapter } from 'affordance/provider';
import { TEST_STATE_SECRET } from 'affordance/testing';

import { deskPrompt, FixedLatencyModel, OrderNote } from './durable-desk.js';

const port = Number(process.env['REDIS_PORT']);
const client = new Redis({ host: '127.0.0.1', port });
const container = new Container();
container
  .bind(ProviderAdapter)
  .toConstantValue(new FixedLatencyModel(Number(process.env['MODEL_LATENCY_MS'] ?? '20')));
const worker = createEvaluationWorker({
  connection: { host: '127.0.0.1', port, maxRetriesPerRequest: null },
  queueName: process.env['QUEUE'],
  runtime: installAffordance(container, { stateSecret: TEST_STATE_SECRET }),
  persistence: new SessionPersistence({
    store: new RedisSessionStore({ client, keyPrefix: 'bench:' }),
    codec: new SessionCodec({ classes: [OrderNote] }),
  }),
  prompts: { desk: { prompt: deskPrompt } },
  concurrency: Number(process.env['CONCURRENCY'] ?? '1'),
});
await worker.waitUntilReady();
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void worker
    .close()
    .then(() => client.quit())
    .then(() => process.exit(0));
});
