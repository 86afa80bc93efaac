/**
 * The nest example's queued mode over real HTTP on 127.0.0.1 with a real
 * redis-server: `POST /agent/jobs` answers 202 at once, a worker (the
 * example's `startSupportWorker`, its own Nest application context) runs the
 * agent on the customer's session stored in Redis, `GET /agent/jobs/:jobId`
 * shows progress and the result; a second question continues the same stored
 * conversation; a large refund waits for approval.
 */
import type { INestApplication } from '@nestjs/common';
import { Redis } from 'ioredis';

import { PromptExecuted, ToolInvoked } from 'affordance';
import { EvaluationQueue, type EvaluationJobResult } from 'affordance/bullmq';
import { RedisSessionStore, SessionCodec, SessionPersistence } from 'affordance/durable';

import { createApp } from '../../examples/nest-service/main.js';
import {
  type SupportWorker,
  startSupportWorker,
} from '../../examples/nest-service/queued-worker.js';
import { supportPrompt } from '../../examples/nest-service/support-prompt.js';
import { postJson } from '../support/nest-http.js';
import { describeWithRedis } from '../support/servers/describe-with-servers.js';
import { type RedisServer, startRedis } from '../support/servers/redis-server.js';

interface JobView {
  readonly state: string;
  readonly progress: unknown;
  readonly result: EvaluationJobResult | null;
}

describeWithRedis('the nest example in queued mode', () => {
  let redis: RedisServer;
  let clients: Redis[];
  let queue: EvaluationQueue;
  let app: INestApplication;
  let worker: SupportWorker;
  let base: string;

  beforeAll(async () => {
    redis = await startRedis();
    const connection = { host: '127.0.0.1', port: redis.port };
    clients = [new Redis(connection), new Redis(connection)];
    const [appClient, workerClient] = clients as [Redis, Redis];
    queue = new EvaluationQueue({
      connection: { ...connection, maxRetriesPerRequest: null },
      queueName: 'support',
    });
    app = await createApp({
      offline: true,
      queued: {
        sessionStore: new RedisSessionStore({ client: appClient }),
        evaluationQueue: queue,
      },
    });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
    // Its own Nest context and Redis client, as the example's worker process has.
    worker = await startSupportWorker({
      connection,
      sessionStore: new RedisSessionStore({ client: workerClient }),
      queueName: 'support',
    });
  }, 60_000);

  afterAll(async () => {
    await worker.close();
    await app.close();
    await queue.close();
    await Promise.all(clients.map((client) => client.quit()));
    await redis.stop();
  });

  async function ask(customerId: string, message: string) {
    const posted = await postJson(
      `${base}/agent/jobs`,
      { message },
      { 'x-customer-id': customerId },
    );
    expect(posted.status).toBe(202);
    return posted.body as { jobId: string; sessionId: string; status: string };
  }

  async function finished(jobId: string): Promise<JobView> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const response = await fetch(`${base}/agent/jobs/${jobId}`);
      expect(response.status).toBe(200);
      const view = (await response.json()) as JobView;
      if (view.state === 'completed' || view.state === 'failed') return view;
      if (Date.now() > deadline) throw new Error(`job ${jobId} still ${view.state}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('answers 202 at once, and the worker answers on the customer stored session', async () => {
    const queued = await ask('c-1001', 'I am locked out: how do I reset my password?');
    expect(queued).toMatchObject({ sessionId: 'customer-c-1001', status: 'queued' });
    const view = await finished(queued.jobId);
    expect(view.state).toBe('completed');
    expect(view.result).toMatchObject({ status: 'completed', output: { resolution: 'answered' } });
    // The worker's last progress report: the turn it answered in, after the one tool call.
    expect(view.progress).toMatchObject({
      turn: 0,
      toolCalls: 1,
      lastCalls: ['search_knowledge_base'],
    });

    // A second question continues the same stored conversation.
    const again = await ask('c-1001', 'The CSV export crashes with error 500 since this morning.');
    expect((await finished(again.jobId)).result).toMatchObject({
      status: 'completed',
      output: { resolution: 'ticket_opened' },
    });
    const persistence = new SessionPersistence({
      store: new RedisSessionStore({ client: clients[0] as Redis }),
      codec: new SessionCodec().registerPrompt(supportPrompt),
    });
    const stored = await persistence.open('customer-c-1001', { create: false });
    expect(stored.session.view.slice(PromptExecuted).all()).toHaveLength(2);
    const calls = stored.session.view.slice(ToolInvoked).all();
    expect(new Set(calls.map((event) => event.evaluationId)).size).toBe(2);
    // The offline model's first ticket is invalid on purpose; the request-scoped Customer is the asker.
    expect(calls.map((event) => [event.name, event.outcome])).toEqual([
      ['search_knowledge_base', 'success'],
      ['search_knowledge_base', 'success'],
      ['open_ticket', 'failure'],
      ['open_ticket', 'success'],
    ]);
    expect(calls[3]?.renderedMessage).toContain('for customer c-1001');
  });

  it('keeps a large refund waiting for approval', async () => {
    const queued = await ask('c-3003', 'Please refund order A-1042, I was charged $120.');
    const view = await finished(queued.jobId);
    expect(view.result).toMatchObject({
      status: 'interrupted',
      pending: [{ name: 'refund_order' }],
    });
    // The arguments exactly as the model sent them (JSON text here).
    const pending = view.result?.status === 'interrupted' ? view.result.pending[0] : undefined;
    expect(pending?.reason).toContain('approval');
    expect(typeof pending?.arguments).toBe('string');
    expect(JSON.parse(pending?.arguments as string)).toMatchObject({
      orderId: 'A-1042',
      amount: 120,
    });
  });

  it('streams a job as server-sent events: progress as it runs, then the same result as polling', async () => {
    // The worker waits until the stream is open, so the job's events come live; the stream
    // replays the queue's retained events first, so none is missed while its listener connects.
    await worker.worker.pause();
    const queued = await ask('c-2002', 'The CSV export crashes with error 500 since this morning.');
    const response = await fetch(`${base}/agent/jobs/${queued.jobId}/events`);
    await worker.worker.resume();
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    // The stream ends after the job's ending.
    const text = await response.text();
    const events = text
      .split('\n\n')
      .filter((block) => block.trim() !== '')
      .map((block) => ({
        type: /^event: (.*)$/m.exec(block)?.[1],
        data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as unknown,
      }));
    // Three turns with tool calls: each reports when its calls are known and once they are recorded.
    expect(events.map((event) => event.type)).toEqual([
      ...Array<string>(6).fill('progress'),
      'completed',
    ]);
    expect(events[0]?.data).toMatchObject({ turn: 0, toolCalls: 0, lastCalls: [] });
    const polled = await finished(queued.jobId);
    expect(events.at(-1)?.data).toEqual(polled.result);
    expect(polled.result).toMatchObject({ output: { resolution: 'ticket_opened' } });
  });

  it('answers 404 for an unknown job and 400 for an empty question', async () => {
    const missing = await (await fetch(`${base}/agent/jobs/nope/events`)).text();
    expect(missing).toContain('event: missing');
    expect((await fetch(`${base}/agent/jobs/nope`)).status).toBe(404);
    expect((await postJson(`${base}/agent/jobs`, { message: '' })).status).toBe(400);
  });
});
