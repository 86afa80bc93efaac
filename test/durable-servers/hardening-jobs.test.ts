/**
 * Issue 31, item 14, on a real redis-server and BullMQ worker: every field of
 * an evaluation job's data is checked before anything is loaded, and a job
 * whose `input` is not a string or longer than `MAX_JOB_INPUT_LENGTH`, whose
 * `maxTurns` is not a whole number from 1 to `MAX_JOB_TURNS`, or whose id
 * would make a record key longer than the stores take, fails at once (one
 * attempt) with a message naming the job, the field and the fix, as a job
 * naming an unknown prompt does. Before, such jobs ran (`input: { toString:
 * 'x' }` and a 5 MB input completed; `maxTurns: 1e9` was accepted).
 */
import { QueueEvents } from 'bullmq';
import { Container } from 'inversify';

import { installAffordance, MarkdownSection, Prompt, ProviderAdapter } from 'affordance';
import {
  createEvaluationWorker,
  type EvaluationJobData,
  type EvaluationJobResult,
  EvaluationQueue,
  MAX_JOB_INPUT_LENGTH,
  MAX_JOB_TURNS,
} from 'affordance/bullmq';
import {
  InMemorySessionStore,
  MAX_STORED_NAME_LENGTH,
  SessionPersistence,
} from 'affordance/durable';
import { providerCapabilities, type ProviderRequest, type ProviderTurn } from 'affordance/provider';
import type { Worker } from 'bullmq';

import { type RedisServer, startRedis } from '../support/servers/redis-server.js';
import { describeWithRedis } from '../support/servers/describe-with-servers.js';

/** Answers at once with the length of the user's message. */
class EchoModel extends ProviderAdapter {
  readonly name = 'echo-model';
  readonly capabilities = providerCapabilities({});
  requests = 0;

  request(request: ProviderRequest): Promise<ProviderTurn> {
    this.requests += 1;
    const user = request.messages.find((message) => message.role === 'user');
    const content = user === undefined || typeof user.content !== 'string' ? '' : user.content;
    return Promise.resolve({ text: `${content.length} characters` });
  }
}

const prompt = new Prompt({
  ns: 'hard',
  key: 'echo',
  sections: [new MarkdownSection({ key: 'echo', title: 'Echo', template: 'Say the length.' })],
});

describeWithRedis('evaluation jobs, hardened', () => {
  let redis: RedisServer;
  let queue: EvaluationQueue;
  let events: QueueEvents;
  let worker: Worker<EvaluationJobData, EvaluationJobResult>;
  let model: EchoModel;
  let serial = 0;
  const connection = () => ({ host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null });

  beforeAll(async () => {
    redis = await startRedis();
    model = new EchoModel();
    const container = new Container();
    container.bind(ProviderAdapter).toConstantValue(model);
    const queueName = 'hardening-jobs';
    queue = new EvaluationQueue({ connection: connection(), queueName, jobs: { attempts: 3 } });
    events = new QueueEvents(queueName, { connection: connection() });
    worker = createEvaluationWorker({
      connection: connection(),
      queueName,
      runtime: installAffordance(container),
      persistence: new SessionPersistence({ store: new InMemorySessionStore() }),
      prompts: { echo: { prompt } },
    });
    await Promise.all([events.waitUntilReady(), worker.waitUntilReady()]);
  }, 60_000);

  afterAll(async () => {
    await worker.close();
    await events.close();
    await queue.close();
    await redis.stop();
  });

  /** Adds `data` as it is (past enqueue's types), and waits for the job to end. */
  async function run(data: Record<string, unknown>, jobId = `job-${++serial}`) {
    const job = await queue.queue.add('evaluate', data as unknown as EvaluationJobData, {
      jobId,
      attempts: 3,
    });
    try {
      const result = await job.waitUntilFinished(events, 20_000);
      return { result, message: undefined, attempts: 1 };
    } catch (error) {
      const failed = await queue.queue.getJob(job.id ?? '');
      return {
        result: undefined,
        message: (error as Error).message,
        attempts: failed?.attemptsMade,
      };
    }
  }

  const evaluate = (fields: Record<string, unknown>) => ({
    kind: 'evaluate',
    prompt: 'echo',
    sessionId: `session-${serial + 1}`,
    ...fields,
  });

  it('runs a job whose input and maxTurns are at their limits', async () => {
    const outcome = await run(
      evaluate({ input: 'a'.repeat(MAX_JOB_INPUT_LENGTH), maxTurns: MAX_JOB_TURNS }),
    );
    expect(outcome.message).toBeUndefined();
    expect(outcome.result).toMatchObject({
      status: 'completed',
      text: `${MAX_JOB_INPUT_LENGTH} characters`,
    });
  });

  it.each([
    [
      'input { toString: "x" }',
      { input: { toString: 'x' } },
      'input {"toString":"x"}, which is not a string',
    ],
    ['input 42', { input: 42 }, 'input 42, which is not a string'],
    [
      'a 5 MB input',
      { input: 'b'.repeat(5_000_000) },
      `input of 5000000 characters; the limit is ${MAX_JOB_INPUT_LENGTH}`,
    ],
    [
      'maxTurns 1e9',
      { maxTurns: 1e9 },
      `maxTurns 1000000000, not a whole number from 1 to ${MAX_JOB_TURNS}`,
    ],
    ['maxTurns 0', { maxTurns: 0 }, `maxTurns 0, not a whole number from 1 to ${MAX_JOB_TURNS}`],
    [
      'maxTurns 2.5',
      { maxTurns: 2.5 },
      `maxTurns 2.5, not a whole number from 1 to ${MAX_JOB_TURNS}`,
    ],
    [
      'maxTurns "3"',
      { maxTurns: '3' },
      `maxTurns "3", not a whole number from 1 to ${MAX_JOB_TURNS}`,
    ],
  ])(
    'fails a job carrying %s at once, naming the job and the field',
    async (_label, fields, problem) => {
      const before = model.requests;
      const jobId = `bad-${++serial}`;
      const outcome = await run(evaluate(fields), jobId);
      expect(outcome.message).toContain(`Evaluation job ${jobId}: carries ${problem}`);
      expect(outcome.message).toContain('Fix:');
      expect(outcome.attempts).toBe(1);
      expect(model.requests).toBe(before);
    },
  );

  it('fails at once a job whose id or resumeOf would make a record key longer than the stores take', async () => {
    const long = 'j'.repeat(MAX_STORED_NAME_LENGTH);
    const byId = await run(evaluate({}), long);
    expect(byId.message).toContain(`Evaluation job ${long.slice(0, 40)}`);
    expect(byId.message).toContain('MAX_STORED_NAME_LENGTH');
    expect(byId.attempts).toBe(1);
    const byResume = await run(evaluate({ kind: 'resume', resumeOf: long, decisions: [] }));
    expect(byResume.message).toContain('carries resumeOf of 256 characters');
    expect(byResume.attempts).toBe(1);
  });
});
