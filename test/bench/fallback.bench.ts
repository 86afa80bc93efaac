/**
 * What a `FallbackAdapter` costs (README of the docs: `docs/guide/fallback-and-routing.md`):
 *
 * - added cost per request when the first provider answers: `fallback.request(r)` over
 *   [answering, spare] against `answering.request(r)` called directly, interleaved in one
 *   process, on an in-memory adapter (no network, so the fallback's own work is all that
 *   differs), for a first turn and for a third turn whose conversation holds two earlier
 *   answers' provider items (which the fallback unwraps for the member that produced them).
 *   Goal: ≤ 2 µs added, judged on the median of three runs.
 * - time to switch when the first provider refuses at once: in memory (the first member
 *   rejects with a 503) against asking the second directly; and with the real `openai` SDK
 *   refused on a closed port of 127.0.0.1 (`maxRetries: 0`) against the same second member.
 *   Reported, no goal.
 *
 * Every timed answer is checked (its text, and who served it).
 */
import 'reflect-metadata';

import { createServer } from 'node:net';

import OpenAI from 'openai';

import { OpenAIAdapter } from 'affordance/openai';
import {
  type ConversationMessage,
  FallbackAdapter,
  ProviderAdapter,
  providerCapabilities,
  type ProviderRequest,
  type ProviderTurn,
  TokenUsage,
} from 'affordance/provider';
import { systemClock } from 'affordance';

import { compare, formatNs } from './measure.js';

/** An in-memory provider: answers every request with the same turn, at once. */
class InstantAdapter extends ProviderAdapter {
  override readonly capabilities = providerCapabilities({ strictTools: true });
  readonly #turn: ProviderTurn;

  constructor(
    override readonly name: string,
    override readonly model: string,
  ) {
    super();
    this.#turn = {
      text: 'ok',
      toolCalls: [],
      finishReason: 'stop',
      usage: new TokenUsage({ inputTokens: 12, outputTokens: 2 }),
      providerItems: [{ type: 'reasoning', encrypted_content: 'gAAAA' }],
    };
  }

  override request(_request: ProviderRequest): Promise<ProviderTurn> {
    return Promise.resolve(this.#turn);
  }
}

/** An in-memory provider that refuses every request at once, as an overloaded API does. */
class RefusingAdapter extends ProviderAdapter {
  override readonly name = 'down';
  override readonly capabilities = providerCapabilities({ strictTools: true });
  readonly #error = Object.assign(new Error('503 Service Unavailable'), { status: 503 });

  override request(_request: ProviderRequest): Promise<ProviderTurn> {
    return Promise.reject(this.#error);
  }
}

function requestOf(messages: readonly ConversationMessage[], turn: number): ProviderRequest {
  return {
    prompt: { name: 'bench/fallback', ns: 'bench', key: 'fallback', label: 'bench/fallback' },
    messages,
    tools: [],
    toolChoice: 'auto',
    output: undefined,
    turn,
    evaluationId: 'ev-bench',
    signal: new AbortController().signal,
    deadline: undefined,
    clock: systemClock,
  };
}

const system: ConversationMessage = { role: 'system', content: 'You settle orders.' };
const user: ConversationMessage = { role: 'user', content: 'Refund A-1 and B-2.' };

/** Turn 2's conversation: two earlier answers with their provider items, as `items` gives them. */
function thirdTurn(items: (index: number) => readonly unknown[]): ConversationMessage[] {
  const messages: ConversationMessage[] = [system, user];
  for (const index of [1, 2]) {
    const callId = `call_${index}`;
    messages.push({
      role: 'assistant',
      content: null,
      toolCalls: [{ callId, name: 'refund_order', arguments: '{"orderId":"A-1"}' }],
      providerItems: items(index),
    });
    messages.push({
      role: 'tool',
      callId,
      name: 'refund_order',
      content: 'Refunded.',
      result: undefined as never,
    });
  }
  return messages;
}

/** Fails the bench unless `turn` is the expected answer, served by `provider` when one is named. */
function check(turn: ProviderTurn, provider: string | undefined): ProviderTurn {
  if (turn.text !== 'ok' || (provider !== undefined && turn.provider !== provider)) {
    throw new Error(`bench: unexpected answer ${JSON.stringify([turn.text, turn.provider])}`);
  }
  return turn;
}

async function addedCost(run: number): Promise<{ first: number; third: number }> {
  const answering = new InstantAdapter('openai', 'gpt-bench');
  const fallback = new FallbackAdapter([
    answering,
    new InstantAdapter('anthropic', 'claude-bench'),
  ]);
  const reasoning = [{ type: 'reasoning', encrypted_content: 'gAAAA' }];
  const first = requestOf([system, user], 0);
  const directThird = requestOf(
    thirdTurn(() => reasoning),
    2,
  );
  const wrappedThird = requestOf(
    thirdTurn(() => [{ servedBy: 'openai/gpt-bench', items: reasoning }]),
    2,
  );
  const results = await compare(
    `Fallback, first provider answers (run ${run}): added cost per request`,
    [
      { name: 'direct, turn 0', run: async () => check(await answering.request(first), undefined) },
      { name: 'fallback, turn 0', run: async () => check(await fallback.request(first), 'openai') },
      {
        name: 'direct, turn 2',
        run: async () => check(await answering.request(directThird), undefined),
      },
      {
        name: 'fallback, turn 2',
        run: async () => check(await fallback.request(wrappedThird), 'openai'),
      },
    ],
    { baseline: 'direct, turn 0', batch: 20_000, rounds: 15 },
  );
  const ns = (name: string): number => results.find((row) => row.name === name)?.medianNs ?? NaN;
  return {
    first: ns('fallback, turn 0') - ns('direct, turn 0'),
    third: ns('fallback, turn 2') - ns('direct, turn 2'),
  };
}

/** A base URL where nothing listens: a port taken, then freed. */
async function refusingBaseURL(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return `http://127.0.0.1:${port}/v1`;
}

async function switchTime(): Promise<void> {
  const second = new InstantAdapter('anthropic', 'claude-bench');
  const request = requestOf([system, user], 0);
  const inMemory = new FallbackAdapter([new RefusingAdapter(), second], { circuitBreaker: false });
  const sdk = new OpenAIAdapter(
    new OpenAI({ apiKey: 'sk-bench', baseURL: await refusingBaseURL(), maxRetries: 0 }),
    { model: 'gpt-bench', retry: { maxRetries: 0 } },
  );
  const overHttp = new FallbackAdapter([sdk, second], { circuitBreaker: false });
  const results = await compare(
    'Fallback, first provider refuses at once: time to switch',
    [
      {
        name: 'second, directly',
        run: async () => check(await second.request(request), undefined),
      },
      {
        name: 'in memory: 503, then second',
        run: async () => check(await inMemory.request(request), 'anthropic'),
      },
      {
        name: 'openai SDK: refused, then second',
        run: async () => check(await overHttp.request(request), 'anthropic'),
      },
    ],
    { baseline: 'second, directly', batch: 200, rounds: 9, warmup: 200 },
  );
  const base = results[0]?.medianNs ?? NaN;
  for (const row of results.slice(1)) {
    console.log(`  switch time, ${row.name}: ${formatNs(row.medianNs - base)}`);
  }
}

export default async function run(): Promise<void> {
  const runs: { first: number; third: number }[] = [];
  for (let index = 1; index <= 3; index++) runs.push(await addedCost(index));
  const median = (values: number[]): number =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  const first = median(runs.map((r) => r.first));
  const third = median(runs.map((r) => r.third));
  const verdict = (ns: number): string => (ns <= 2_000 ? 'met' : 'not met');
  console.log('\nFallback added cost, median of 3 runs (goal ≤ 2 µs per request):');
  console.log(`  turn 0 (no provider items):        ${formatNs(first)}  ${verdict(first)}`);
  console.log(`  turn 2 (two answers' items):       ${formatNs(third)}  ${verdict(third)}`);
  await switchTime();
}
