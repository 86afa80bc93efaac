/**
 * Durable sessions and evaluation jobs (`npm run bench -- durable`), on real
 * servers started here (redis-server and PostgreSQL from Debian's packages):
 *
 * 1. Store overhead: one evaluation of the desk (two turns, two tool calls, the
 *    session committed at each checkpoint: 4 commits and one load) run as a job
 *    body (`runEvaluationJob`, no queue) on each store, interleaved in rounds
 *    with the same evaluation on a session in memory without checkpoints; the
 *    model answers at once, so the store's cost is all that differs. Reported
 *    per evaluation and per turn, as ratios to the in-memory store.
 *
 * Throughput with 1, 2 and 4 worker processes is durable-throughput.bench.ts.
 */
import 'reflect-metadata';

import { Container } from 'inversify';
import { Redis } from 'ioredis';
import pg from 'pg';

import { installAffordance, Session } from 'affordance';
import { runEvaluationJob } from 'affordance/bullmq';
import {
  applyPostgresMigrations,
  InMemorySessionStore,
  PostgresSessionStore,
  RedisSessionStore,
  SessionCodec,
  SessionPersistence,
  type SessionStore,
} from 'affordance/durable';
import { ProviderAdapter } from 'affordance/provider';
import { TEST_STATE_SECRET } from 'affordance/testing';

import { startPostgres } from '../support/servers/postgres-server.js';
import { startRedis } from '../support/servers/redis-server.js';
import { deskPrompt, FixedLatencyModel, OrderNote } from './durable-desk.js';
import { compare } from './measure.js';

const codec = new SessionCodec({ classes: [OrderNote] });
let serial = 0;

/** One evaluation of the desk as a job body on `store`, on a new session. */
function jobOn(store: SessionStore): () => Promise<unknown> {
  const persistence = new SessionPersistence({ store, codec });
  const container = new Container();
  container.bind(ProviderAdapter).toConstantValue(new FixedLatencyModel(0));
  const runtime = installAffordance(container, { stateSecret: TEST_STATE_SECRET });
  return async () => {
    serial += 1;
    return await runEvaluationJob(
      {
        id: `job-${serial}`,
        data: { kind: 'evaluate', prompt: 'desk', sessionId: `s-${serial}` },
        updateProgress: () => Promise.resolve(),
      },
      { runtime, persistence, prompts: { desk: { prompt: deskPrompt } } },
    );
  };
}

async function storeOverhead(redisPort: number, postgresUrl: string): Promise<void> {
  const client = new Redis({ host: '127.0.0.1', port: redisPort });
  const pool = new pg.Pool({ connectionString: postgresUrl, max: 4 });
  await applyPostgresMigrations(pool);
  const plainRuntime = installAffordance(new Container());
  const plainAdapter = new FixedLatencyModel(0);
  const results = await compare(
    'One evaluation as a job: 2 turns, 2 tool calls, 4 commits',
    [
      {
        name: 'session in memory, no checkpoints',
        run: () =>
          plainRuntime.evaluate(deskPrompt, { adapter: plainAdapter, session: new Session() }),
      },
      { name: 'InMemorySessionStore', run: jobOn(new InMemorySessionStore()) },
      { name: 'RedisSessionStore', run: jobOn(new RedisSessionStore({ client })) },
      { name: 'PostgresSessionStore', run: jobOn(new PostgresSessionStore({ pool })) },
    ],
    { baseline: 'InMemorySessionStore', batch: 40, rounds: 10 },
  );
  const base = results.find((row) => row.name === 'InMemorySessionStore');
  for (const row of results) {
    if (base === undefined || row === base || !row.name.endsWith('SessionStore')) continue;
    const perTurn = (row.medianNs - base.medianNs) / 2 / 1e6;
    console.log(`  ${row.name}: ${perTurn.toFixed(2)} ms per turn over the in-memory store`);
  }
  await client.quit();
  await pool.end();
}

export default async function durableBench(): Promise<void> {
  const redis = await startRedis();
  const postgres = await startPostgres();
  try {
    await storeOverhead(redis.port, postgres.url);
  } finally {
    await redis.stop();
    await postgres.stop();
  }
}
