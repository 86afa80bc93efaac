/**
 * The BullMQ worker in this process against a real redis-server: jobs run on
 * stored sessions, report progress through BullMQ's events, pause for approval
 * and resume once, fail at once when they can never succeed, and finish their
 * running job when the worker closes.
 */
import { IsInt, IsString, Min } from 'class-validator';
import { QueueEvents, type Job, type Worker } from 'bullmq';
import { Container } from 'inversify';

import {
  installAffordance,
  MarkdownSection,
  Prompt,
  ProviderAdapter,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import {
  createEvaluationWorker,
  type EvaluationJobData,
  type EvaluationJobProgress,
  type EvaluationJobResult,
  EvaluationQueue,
  runEvaluationJob,
} from 'affordance/bullmq';
import { InMemorySessionStore, SessionPersistence } from 'affordance/durable';
import { providerCapabilities, type ProviderRequest, type ProviderTurn } from 'affordance/provider';
import { TEST_STATE_SECRET } from 'affordance/testing';

import { type RedisServer, startRedis } from '../support/servers/redis-server.js';
import { describeWithRedis } from '../support/servers/describe-with-servers.js';

class OrderParams {
  @IsString() orderId!: string;
}

class RefundParams {
  @IsString() orderId!: string;
  @IsInt() @Min(1) amount!: number;
}

/** Answers by turn: turn 0 looks an order up and refunds it, turn 1 answers. */
class DeskModel extends ProviderAdapter {
  readonly name = 'desk-model';
  readonly capabilities = providerCapabilities({});
  /** Resolved to let a request through; set by the shutdown test to hold one. */
  gate: Promise<void> | undefined;

  async request(request: ProviderRequest): Promise<ProviderTurn> {
    if (this.gate !== undefined) await this.gate;
    if (request.turn === 0) {
      return {
        toolCalls: [
          { callId: 'l1', name: 'lookup', arguments: { orderId: 'A-1' } },
          { callId: 'r1', name: 'refund', arguments: { orderId: 'A-1', amount: 120 } },
        ],
      };
    }
    const last = request.messages.at(-1);
    return { text: `Answered: ${last?.role === 'tool' ? last.content : 'nothing'}` };
  }
}

const ledger: string[] = [];
const tools = [
  new ToolDefinition({
    name: 'lookup',
    description: 'Look an order up.',
    params: OrderParams,
    readOnly: true,
    handler: (params) => {
      ledger.push(`lookup ${params.orderId}`);
      return ToolResult.ok(null, `Order ${params.orderId}: $120.`);
    },
  }),
  new ToolDefinition({
    name: 'refund',
    description: 'Refund an order.',
    params: RefundParams,
    approval: (params) => params.amount > 100,
    handler: (params) => {
      ledger.push(`refund ${params.orderId} ${params.amount}`);
      return ToolResult.ok(null, `Refunded $${params.amount}.`);
    },
  }),
];
const prompt = new Prompt({
  ns: 'desk',
  key: 'refunds',
  sections: [
    new MarkdownSection({ key: 'desk', title: 'Desk', template: 'Refund orders.', tools }),
  ],
});

let redis: RedisServer;
let queueName: string;
let queue: EvaluationQueue;
let events: QueueEvents;
let worker: Worker<EvaluationJobData, EvaluationJobResult>;
let model: DeskModel;
let persistence: SessionPersistence;
let serial = 0;

function connection() {
  return { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };
}

async function finished(jobId: string): Promise<EvaluationJobResult> {
  const job = await queue.queue.getJob(jobId);
  if (job === undefined) throw new Error(`job ${jobId} is gone`);
  return await job.waitUntilFinished(events, 20_000);
}

async function failure(jobId: string): Promise<{ message: string; job: Job | undefined }> {
  try {
    await finished(jobId);
  } catch (error) {
    return { message: (error as Error).message, job: await queue.queue.getJob(jobId) };
  }
  throw new Error(`job ${jobId} succeeded`);
}

describeWithRedis('the evaluation worker', () => {
  beforeAll(async () => {
    redis = await startRedis();
  }, 60_000);

  afterAll(async () => {
    await redis.stop();
  });

  beforeEach(async () => {
    serial += 1;
    queueName = `worker-tests-${serial}`;
    ledger.length = 0;
    model = new DeskModel();
    persistence = new SessionPersistence({ store: new InMemorySessionStore() });
    const container = new Container();
    container.bind(ProviderAdapter).toConstantValue(model);
    queue = new EvaluationQueue({ connection: connection(), queueName, jobs: { attempts: 2 } });
    events = new QueueEvents(queueName, { connection: connection() });
    worker = createEvaluationWorker({
      connection: connection(),
      queueName,
      runtime: installAffordance(container, { stateSecret: TEST_STATE_SECRET }),
      persistence,
      prompts: { refunds: { prompt } },
      concurrency: 2,
    });
    await Promise.all([events.waitUntilReady(), worker.waitUntilReady()]);
  });

  afterEach(async () => {
    await worker.close();
    await events.close();
    await queue.close();
  });

  it('pauses for approval, reports progress, and resumes once in a resume job', async () => {
    const progress: EvaluationJobProgress[] = [];
    events.on('progress', ({ data }) => progress.push(data as EvaluationJobProgress));
    const jobId = await queue.enqueue({
      prompt: 'refunds',
      sessionId: 'customer-1',
      input: 'Refund A-1.',
    });
    const paused = await finished(jobId);
    expect(paused).toMatchObject({
      status: 'interrupted',
      pending: [
        {
          callId: 'r1',
          name: 'refund',
          arguments: { orderId: 'A-1', amount: 120 },
          reason: "Tool 'refund' needs a person's approval.",
        },
      ],
    });
    expect(ledger).toEqual(['lookup A-1']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(progress.map((step) => [step.turn, step.toolCalls, step.lastCalls])).toEqual(
      expect.arrayContaining([[0, 1, ['lookup']]]),
    );

    const resumeId = await queue.resume({
      prompt: 'refunds',
      sessionId: 'customer-1',
      resumeOf: jobId,
      decisions: [{ callId: 'r1', approved: true }],
    });
    expect(await finished(resumeId)).toMatchObject({
      status: 'completed',
      text: 'Answered: Refunded $120.',
      toolCalls: 2,
    });
    expect(ledger).toEqual(['lookup A-1', 'refund A-1 120']);

    // The same evaluation cannot be resumed twice: the second job fails at once, without retries.
    const again = await queue.resume({
      prompt: 'refunds',
      sessionId: 'customer-1',
      resumeOf: jobId,
      decisions: [{ callId: 'r1', approved: true }],
    });
    const refused = await failure(again);
    expect(refused.message).toContain(`already resumed by job ${resumeId}`);
    expect(refused.job?.attemptsMade).toBe(1);
    expect(ledger).toEqual(['lookup A-1', 'refund A-1 120']);

    const durable = await persistence.open('customer-1', { create: false });
    expect(
      durable.session.view
        .slice(ToolInvoked)
        .all()
        .map((event) => [event.callId, event.outcome]),
    ).toEqual([
      ['l1', 'success'],
      ['r1', 'success'],
    ]);
  });

  it('returns the stored result when a finished job runs again, without running a tool', async () => {
    const jobId = await queue.enqueue({ prompt: 'refunds', sessionId: 'customer-2' });
    const first = await finished(jobId);
    const before = [...ledger];
    const again = await runEvaluationJob(
      {
        id: jobId,
        data: { kind: 'evaluate', prompt: 'refunds', sessionId: 'customer-2' },
        updateProgress: () => Promise.resolve(),
      },
      {
        runtime: installAffordance(new Container(), { stateSecret: TEST_STATE_SECRET }),
        persistence,
        prompts: { refunds: { prompt } },
      },
    );
    expect(again).toEqual(first);
    expect(ledger).toEqual(before);
  });

  it('fails a job naming an unknown prompt at once, naming the prompts it knows', async () => {
    const jobId = await queue.enqueue({ prompt: 'nope', sessionId: 'customer-3' });
    const refused = await failure(jobId);
    expect(refused.message).toContain(
      `names prompt "nope", which this worker does not know (it knows: refunds)`,
    );
    expect(refused.job?.attemptsMade).toBe(1);
  });

  it('finishes the running job before close() resolves', async () => {
    let open = (): void => undefined;
    model.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const jobId = await queue.enqueue({ prompt: 'refunds', sessionId: 'customer-4' });
    await new Promise<void>((resolve) => {
      worker.once('active', () => {
        resolve();
      });
    });
    const closing = worker.close();
    open();
    await closing;
    const job = await queue.queue.getJob(jobId);
    expect(await job?.getState()).toBe('completed');
    expect(job?.returnvalue).toMatchObject({ status: 'interrupted' });
  });

  it('refuses a concurrency that is not a positive integer', () => {
    expect(() =>
      createEvaluationWorker({
        connection: connection(),
        runtime: installAffordance(new Container(), { stateSecret: TEST_STATE_SECRET }),
        persistence,
        prompts: {},
        concurrency: 0,
      }),
    ).toThrow(/createEvaluationWorker.concurrency: must be a positive integer, got 0/);
  });
});
