import 'reflect-metadata';

import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { Container } from 'inversify';

import { AffordanceRuntime, Deadline, installAffordance, Session, ToolInvoked } from 'affordance';
import { AiSdkAdapter } from 'affordance/ai-sdk';

import { customerMessage, orderDeskPrompt } from '../openai-agent/main.js';
import { OrderBook } from '../openai-agent/order-book.js';
import { recordedAnswers } from './recording.js';
import { type RecordedServer, startRecordedServer } from './recorded-server.js';

/**
 * The order desk of examples/openai-agent on Gemini through the AI SDK:
 * `@ai-sdk/google`'s model object behind an `AiSdkAdapter`. With
 * `GOOGLE_GENERATIVE_AI_API_KEY` set it asks the real Gemini API (the model
 * `GEMINI_MODEL`, `gemini-2.5-flash` by default); otherwise a local server on
 * 127.0.0.1 answers with recorded `generateContent` bodies.
 */
export async function run(
  print: (line: string) => void = console.log,
  env: NodeJS.ProcessEnv = process.env,
) {
  const key = env['GOOGLE_GENERATIVE_AI_API_KEY'] ?? '';
  const recorded: RecordedServer | undefined =
    key === '' ? await startRecordedServer(recordedAnswers) : undefined;
  try {
    const google = createGoogleGenerativeAI(
      recorded === undefined ? { apiKey: key } : { apiKey: 'recorded', baseURL: recorded.baseURL },
    );
    const adapter = new AiSdkAdapter({
      model: google(env['GEMINI_MODEL'] ?? 'gemini-2.5-flash'),
      secrets: [key],
    });
    const container = new Container();
    container.bind(OrderBook).toSelf().inSingletonScope();
    installAffordance(container);
    const runtime = container.get(AffordanceRuntime);
    const session = new Session();
    session.dispatcher.subscribe(ToolInvoked, (event) => {
      const args = event.rawArguments;
      print(
        `  tool ${event.name}(${typeof args === 'string' ? args : JSON.stringify(args)}) → ${event.outcome}`,
      );
    });
    print(
      `Order desk on ${adapter.name} ${adapter.model} (${recorded === undefined ? 'the Gemini API' : 'recorded server; set GOOGLE_GENERATIVE_AI_API_KEY for the real API'})`,
    );
    print(`Customer: ${customerMessage}`);
    const response = await runtime.evaluate(orderDeskPrompt, {
      adapter,
      input: customerMessage,
      session,
      deadline: Deadline.in(120_000),
    });
    print(`Answer: ${JSON.stringify(response.output)}`);
    const usage = response.usage;
    print(
      `Done in ${response.turns} turns, ${response.toolCalls.length} tool calls, ` +
        `${usage?.inputTokens ?? 0} input + ${usage?.outputTokens ?? 0} output tokens ` +
        `(${usage?.cachedTokens ?? 0} cached).`,
    );
    return { response, session, container, requests: recorded?.requests ?? [] };
  } finally {
    await recorded?.close();
  }
}

if (
  process.argv[1] !== undefined &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
) {
  await run();
}
