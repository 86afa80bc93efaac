import 'reflect-metadata';

import { IsBoolean, IsString } from 'class-validator';
import { Container } from 'inversify';

import { AffordanceRuntime, Deadline, Describe, Prompt, Session, ToolInvoked } from 'affordance';
import type { ScriptedTurn } from 'affordance/testing';

import { bindProvider } from '../shared/bind-provider.js';

import { OrderBook } from './order-book.js';
import { OrderDeskSection } from './order-desk-section.js';

/** The structured answer the prompt asks for. */
export class DeskAnswer {
  @Describe('The order the answer is about') @IsString() orderId!: string;
  @Describe('Whether a refund was issued in this conversation') @IsBoolean() refunded!: boolean;
  @Describe('The reply to send the customer') @IsString() reply!: string;
}

/** The order-desk prompt: one decorated section and a structured output. */
export const orderDeskPrompt = new Prompt({
  ns: 'examples/openai-agent',
  key: 'order-desk',
  sections: [OrderDeskSection],
  output: DeskAnswer,
});

/** The customer's message. */
export const customerMessage = 'Hi, order A1001 arrived broken. Can I get my money back?';

/**
 * The model's side of the offline run, scripted: a malformed id the validator
 * rejects, the corrected lookup, the refund, then the structured answer.
 */
export const scriptedModel: readonly ScriptedTurn[] = [
  {
    toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A1001' } }],
    usage: { inputTokens: 380, outputTokens: 22 },
  },
  {
    toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A-1001' } }],
    usage: { inputTokens: 455, outputTokens: 20 },
  },
  {
    toolCalls: [
      { name: 'refund_order', arguments: { orderId: 'A-1001', reason: 'arrived broken' } },
    ],
    usage: { inputTokens: 520, outputTokens: 31 },
  },
  {
    text: JSON.stringify({
      orderId: 'A-1001',
      refunded: true,
      reply: 'Sorry about that! Order A-1001 has been refunded (42.50 EUR).',
    }),
    usage: { inputTokens: 610, outputTokens: 45 },
  },
];

/**
 * The application container: the order book, affordance, and a provider —
 * OpenAI when `OPENAI_API_KEY` is set (any compatible server via
 * `OPENAI_BASE_URL`; `OPENAI_MODEL`, `OPENAI_API=chat` for Chat Completions),
 * otherwise the scripted model.
 */
export function wire(env: NodeJS.ProcessEnv, print: (line: string) => void) {
  const container = new Container();
  container.bind(OrderBook).toSelf().inSingletonScope();
  const { adapter, script, mode } = bindProvider(container, env, scriptedModel, print);
  return { container, runtime: container.get(AffordanceRuntime), adapter, script, mode };
}

/**
 * Runs the order-desk agent and prints each tool call with its outcome, the
 * answer and a summary. Returns the response, the session and the container.
 */
export async function run(
  print: (line: string) => void = console.log,
  env: NodeJS.ProcessEnv = process.env,
) {
  const { container, runtime, adapter, script, mode } = wire(env, print);
  const session = new Session();
  session.dispatcher.subscribe(ToolInvoked, (event) => {
    const args = event.rawArguments;
    print(
      `  tool ${event.name}(${typeof args === 'string' ? args : JSON.stringify(args)}) → ${event.outcome}`,
    );
    print(event.renderedMessage.replace(/^(?=.)/gm, '    '));
  });
  print(`Order desk on ${mode}`);
  print(`Customer: ${customerMessage}`);
  const started = Date.now();
  const response = await runtime.evaluate(orderDeskPrompt, {
    adapter,
    input: customerMessage,
    session,
    deadline: Deadline.in(120_000),
  });
  script?.assertDone();
  print(`Answer: ${JSON.stringify(response.output)}`);
  const usage = response.usage;
  print(
    `Done in ${response.turns} turns, ${response.toolCalls.length} tool calls, ` +
      `${usage?.inputTokens ?? 0} input + ${usage?.outputTokens ?? 0} output tokens, ${Date.now() - started} ms.`,
  );
  return { response, session, container };
}

if (
  process.argv[1] !== undefined &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
) {
  await run();
}
