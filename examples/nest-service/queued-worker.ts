import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Worker } from 'bullmq';

import { AffordanceRuntime } from 'affordance';
import { createEvaluationWorker } from 'affordance/bullmq';
import { SessionPersistence, type SessionStore } from 'affordance/durable';
import { AffordanceService } from 'affordance/nest';

import { OfflineSupportModel } from './offline-model.js';
import { SupportAppModule } from './support-app-module.js';
import { supportPrompt } from './support-prompt.js';

/** A running worker of the queued mode, and the Nest context it runs in. */
export interface SupportWorker {
  readonly worker: Worker;
  readonly app: INestApplicationContext;
  /** Lets the running jobs finish, then stops. */
  close(): Promise<void>;
}

/**
 * The worker side of the queued mode: the support service's providers in a
 * Nest application context (no HTTP), running jobs from `queueName` on
 * sessions in `sessionStore`. Each job runs through `AffordanceService` with a
 * request made from the job (its customer's header), so the request-scoped
 * `Customer` of the support section is the customer who asked.
 */
export async function startSupportWorker(options: {
  readonly connection: { host: string; port: number };
  readonly sessionStore: SessionStore;
  readonly queueName?: string | undefined;
}): Promise<SupportWorker> {
  const app = await NestFactory.createApplicationContext(
    SupportAppModule.withModel(
      () => new OfflineSupportModel(),
      {},
      { sessionStore: options.sessionStore },
    ),
    // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest types its options as a class; literals are how it is configured.
    { logger: ['error', 'warn'] },
  );
  const service = app.get(AffordanceService);
  const worker = createEvaluationWorker({
    connection: { ...options.connection, maxRetriesPerRequest: null },
    queueName: options.queueName,
    runtime: app.get(AffordanceRuntime),
    persistence: app.get(SessionPersistence),
    prompts: { support: { prompt: supportPrompt } },
    evaluate: (prompt, evaluateOptions, job) => {
      const data = job.data.data as { customerId?: string } | undefined;
      const request = { headers: { 'x-customer-id': data?.customerId ?? 'anonymous' } };
      return service.evaluate(prompt, { ...evaluateOptions, request });
    },
  });
  await worker.waitUntilReady();
  return {
    worker,
    app,
    close: async () => {
      await worker.close();
      await app.close();
    },
  };
}
