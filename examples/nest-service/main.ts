import 'reflect-metadata';

import { type INestApplication, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';

import type { RuntimeTelemetry } from 'affordance';
import type { EvaluationQueue } from 'affordance/bullmq';
import type { SessionStore } from 'affordance/durable';
import type { AdapterOption } from 'affordance/nest';

import type { AgentAnswer } from './agent-answer.js';
import { OfflineSupportModel } from './offline-model.js';
import { SupportAppModule } from './support-app-module.js';
import type { Ticket } from './ticket-desk.js';
import { portProblem } from '../shared/port-problem.js';

/** Options of {@link createApp} and {@link run}. */
export interface AppOptions {
  /** Use the scripted offline model even when `OPENAI_API_KEY` is set. */
  readonly offline?: boolean;
  /**
   * The queued mode: `POST /agent/jobs` enqueues on `evaluationQueue`, and a
   * worker (`startSupportWorker`) runs the agent on sessions in `sessionStore`.
   */
  readonly queued?: {
    readonly sessionStore: SessionStore;
    readonly evaluationQueue: EvaluationQueue;
  };
}

/** Options of {@link run}. */
export interface RunOptions extends AppOptions {
  /** Port on 127.0.0.1; `PORT` or a free port by default. */
  readonly port?: number;
  /** Keep serving after the demo requests (for curl); the app is closed otherwise. */
  readonly serve?: boolean;
}

/** A customer question the demo sends. */
export interface Question {
  readonly customerId: string;
  readonly message: string;
}

/** The demo: three customers asking at the same time. */
export const demoQuestions: readonly Question[] = [
  { customerId: 'c-1001', message: 'I am locked out: how do I reset my password?' },
  { customerId: 'c-2002', message: 'The CSV export crashes with error 500 since this morning.' },
  { customerId: 'c-3003', message: 'Can I get a refund for the invoice of last month?' },
];

/**
 * The support service as a Nest application (not listening yet). The model
 * is OpenAI when `OPENAI_API_KEY` is set (`OPENAI_MODEL`, default
 * `gpt-5-mini`; `OPENAI_BASE_URL` is read by the SDK) unless `offline`, and
 * the scripted offline model otherwise. With `AFFORDANCE_TRACE=console`,
 * every evaluation is traced and its spans printed (see {@link consoleTracing}).
 */
export async function createApp(options: AppOptions = {}): Promise<INestApplication> {
  const model = await chooseModel(options);
  const telemetry = await consoleTracing();
  const app = await NestFactory.create(
    SupportAppModule.withModel(model, telemetry === undefined ? {} : { telemetry }, options.queued),
    new ExpressAdapter(),
    // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest types its options as a class; literals are how it is configured.
    { logger: ['error', 'warn'], abortOnError: false },
  );
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true }));
  return app;
}

/** Whether {@link createApp} would use OpenAI. */
export function usesOpenAI(options: AppOptions = {}): boolean {
  return options.offline !== true && (process.env['OPENAI_API_KEY'] ?? '') !== '';
}

async function chooseModel(options: AppOptions): Promise<AdapterOption> {
  if (!usesOpenAI(options)) return () => new OfflineSupportModel();
  // Imported only when used: the offline service never loads the OpenAI SDK.
  const { OpenAIAdapter } = await import('affordance/openai');
  const model = process.env['OPENAI_MODEL'] ?? 'gpt-5-mini';
  return () => new OpenAIAdapter(undefined, { model });
}

/**
 * With `AFFORDANCE_TRACE=console`: registers an OpenTelemetry tracer provider
 * that prints each span as it ends (the SDK's `ConsoleSpanExporter` behind a
 * `SimpleSpanProcessor`) and the AsyncLocalStorage context manager, so a
 * nested evaluation's span is its tool call's child; returns `openTelemetry()`
 * for the runtime. The SDK packages are loaded only then. In an application,
 * register the Node SDK with the exporter of your backend instead.
 */
async function consoleTracing(): Promise<RuntimeTelemetry | undefined> {
  if (process.env['AFFORDANCE_TRACE'] !== 'console') return undefined;
  const [{ context, trace }, { AsyncLocalStorageContextManager }, sdk, { openTelemetry }] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/sdk-trace-base'),
      import('affordance/otel'),
    ]);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(
    new sdk.BasicTracerProvider({
      spanProcessors: [new sdk.SimpleSpanProcessor(new sdk.ConsoleSpanExporter())],
    }),
  );
  return openTelemetry();
}

/**
 * Sends one question to `POST /agent` as its customer and returns the answer.
 * @throws Error when the service does not answer 200, e.g. 202 when the
 * agent paused for a person's approval (send the decisions to `POST /agent/approvals/:stateId`).
 */
export async function ask(url: string, question: Question): Promise<AgentAnswer> {
  const response = await fetch(`${url}/agent`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-customer-id': question.customerId },
    body: JSON.stringify({ message: question.message }),
  });
  if (response.status !== 200)
    throw new Error(`POST /agent answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as AgentAnswer;
}

/**
 * Starts the service on 127.0.0.1, sends the demo questions at once over
 * HTTP and prints, for each, the tool calls with their arguments and outcome,
 * the reply, and turns, tokens and time; then the tickets the desk holds.
 */
export async function run(print: (line: string) => void = console.log, options: RunOptions = {}) {
  const app = await createApp(options);
  await app.listen(options.port ?? Number(process.env['PORT'] ?? 0), '127.0.0.1');
  const url = await app.getUrl();
  print(
    `Support agent listening on ${url} (${usesOpenAI(options) ? 'OpenAI' : 'offline scripted model'})`,
  );
  try {
    const answers = await Promise.all(demoQuestions.map((question) => ask(url, question)));
    demoQuestions.forEach((question, index) => {
      printAnswer(print, question, answers[index] as AgentAnswer);
    });
    const tickets = (await (await fetch(`${url}/tickets`)).json()) as Ticket[];
    print('');
    print(`GET /tickets: ${tickets.length} ticket(s)`);
    for (const ticket of tickets) {
      print(`  ${ticket.id} for ${ticket.customerId} [${ticket.priority}] ${ticket.summary}`);
    }
    if (options.serve === true) {
      print('');
      print(
        `Try: curl -s ${url}/agent -H 'content-type: application/json' -H 'x-customer-id: c-42' -d '{"message":"How do I invite a teammate?"}'`,
      );
      print(
        `A refund above $50 waits for approval (202 with a stateId): curl -si ${url}/agent -H 'content-type: application/json' -H 'x-customer-id: c-42' -d '{"message":"Please refund order A-1042, I was charged $120 twice."}'`,
      );
      print(
        `Then: curl -s ${url}/agent/approvals/<stateId> -H 'content-type: application/json' -d '{"decisions":[{"callId":"<callId>","approved":true}]}'`,
      );
      print(`Or chat in a browser: ${url}/`);
    }
    return { url, answers, tickets };
  } finally {
    if (options.serve !== true) await app.close();
  }
}

function printAnswer(print: (line: string) => void, question: Question, answer: AgentAnswer): void {
  print('');
  print(`POST /agent  x-customer-id: ${question.customerId}`);
  print(`  customer: ${question.message}`);
  for (const call of answer.toolCalls) {
    print(`  tool ${call.tool} ${call.arguments} → ${call.outcome}: ${call.message}`);
  }
  print(`  agent (${answer.reply.resolution}): ${answer.reply.reply}`);
  print(
    `  ${plural(answer.turns, 'turn')}, ${plural(answer.toolCalls.length, 'tool call')}, ` +
      `${answer.usage.inputTokens} input + ${answer.usage.outputTokens} output tokens, ${answer.durationMs} ms`,
  );
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

if (
  process.argv[1] !== undefined &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
) {
  const problem = await portProblem(process.env['PORT']);
  if (problem !== undefined) {
    console.error(problem);
    process.exit(1);
  }
  await run(console.log, { serve: process.argv.includes('--serve') });
}
