/**
 * Trace context across the BullMQ boundary: a job added while a span is
 * active (the HTTP request that enqueued it) runs in the worker as part of
 * that trace, through `traceContextPropagation()` on the queue and on the
 * worker, with the real OpenTelemetry SDK in memory and a real redis-server.
 */
import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { QueueEvents, type Worker } from 'bullmq';
import { Container } from 'inversify';

import { installAffordance, MarkdownSection, Prompt, ToolDefinition, ToolResult } from 'affordance';
import {
  createEvaluationWorker,
  type EvaluationJobData,
  type EvaluationJobResult,
  EvaluationQueue,
} from 'affordance/bullmq';
import { InMemorySessionStore, SessionPersistence } from 'affordance/durable';
import { traceContextPropagation } from 'affordance/otel';
import { ScriptedAdapter, TEST_STATE_SECRET } from 'affordance/testing';

import { InMemoryOtel, spanTree } from '../otel/otel-harness.js';
import { describeWithRedis } from '../support/servers/describe-with-servers.js';
import { type RedisServer, startRedis } from '../support/servers/redis-server.js';

const prompt = new Prompt({
  ns: 'desk',
  key: 'greeter',
  sections: [
    new MarkdownSection({
      key: 'desk',
      title: 'Desk',
      template: 'Greet.',
      tools: [
        new ToolDefinition({
          name: 'greet',
          description: 'Greet the customer.',
          handler: () => ToolResult.ok(null, 'Hello!'),
        }),
      ],
    }),
  ],
});

describeWithRedis('trace context across the evaluation queue', () => {
  const manager = new AsyncLocalStorageContextManager();
  let redis: RedisServer;
  let queue: EvaluationQueue;
  let events: QueueEvents;
  let worker: Worker<EvaluationJobData, EvaluationJobResult>;
  const otel = new InMemoryOtel();

  beforeAll(async () => {
    context.setGlobalContextManager(manager.enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    redis = await startRedis();
    const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };
    const propagate = traceContextPropagation();
    queue = new EvaluationQueue({ connection, queueName: 'traced', propagation: propagate });
    events = new QueueEvents('traced', { connection });
    const runtime = installAffordance(new Container(), {
      telemetry: otel.telemetry(),
      stateSecret: TEST_STATE_SECRET,
    });
    worker = createEvaluationWorker({
      connection,
      queueName: 'traced',
      runtime,
      persistence: new SessionPersistence({ store: new InMemorySessionStore() }),
      prompts: { greeter: { prompt } },
      propagation: propagate,
      // The model's turns, scripted afresh for each job.
      evaluate: (target, options) =>
        runtime.evaluate(target, {
          ...options,
          adapter: new ScriptedAdapter([{ toolCalls: [{ name: 'greet' }] }, { text: 'Hi.' }]),
        }),
    });
    await Promise.all([events.waitUntilReady(), worker.waitUntilReady()]);
  }, 60_000);

  afterAll(async () => {
    await worker.close();
    await events.close();
    await queue.close();
    await redis.stop();
    propagation.disable();
    manager.disable();
    context.disable();
  });

  it("runs the job's evaluation as part of the trace of the span that enqueued it", async () => {
    const tracer = otel.tracerProvider.getTracer('test-app');
    const jobId = await tracer.startActiveSpan('POST /agent/jobs', async (span) => {
      try {
        return await queue.enqueue({ prompt: 'greeter', sessionId: 's-1', input: 'Hello?' });
      } finally {
        span.end();
      }
    });
    const job = await queue.queue.getJob(jobId);
    await job?.waitUntilFinished(events, 20_000);

    expect(job?.data.context?.['traceparent']).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const spans = otel.spans();
    expect(spanTree(spans)).toEqual([
      'POST /agent/jobs [internal]',
      '  invoke_agent desk/greeter [internal]',
      '    chat [client]',
      '    execute_tool greet [internal]',
      '    chat [client]',
    ]);
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it('fails a job whose carried context is not a record of strings, at once, with a Fix', async () => {
    const added = await queue.queue.add('evaluate', {
      kind: 'evaluate',
      prompt: 'greeter',
      sessionId: 's-2',
      context: { traceparent: 7 } as unknown as Record<string, string>,
    });

    await expect(added.waitUntilFinished(events, 20_000)).rejects.toThrow(
      'carries context {"traceparent":7}, which is not a record of strings. Fix: Leave context to EvaluationQueue',
    );
    expect((await queue.queue.getJob(added.id ?? ''))?.attemptsMade).toBe(1);
  });
});
