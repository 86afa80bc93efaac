/**
 * What answering from a cassette costs (docs/guide/cassettes.md): one request
 * answered by a `ReplayAdapter` over a cassette in memory against the same
 * request answered by a `ScriptedAdapter`, interleaved in one process; each
 * operation builds its adapter (a replayed recording is used once per adapter,
 * a scripted turn once per script). The replay hashes the request (messages,
 * tool schemas) and rebuilds the turn from JSON; the scripted adapter does
 * neither. Measured for the first request of a tool loop and for its third
 * (two tool results in the conversation). Ratio reported, no goal; median of
 * three runs. Every timed answer is checked.
 */
import 'reflect-metadata';

import { IsString } from 'class-validator';
import { Container } from 'inversify';

import { installAffordance, MarkdownSection, Prompt, ToolDefinition, ToolResult } from 'affordance';
import type { ProviderRequest, ProviderTurn } from 'affordance/provider';
import {
  Cassette,
  RecordingAdapter,
  ReplayAdapter,
  ScriptedAdapter,
  type ScriptedTurn,
  TEST_STATE_SECRET,
} from 'affordance/testing';

import { compare, formatNs } from './measure.js';

class OrderParams {
  @IsString() orderId!: string;
}

const prompt = new Prompt({
  ns: 'bench',
  key: 'cassette',
  sections: [
    new MarkdownSection({
      key: 'orders',
      title: 'Orders',
      template: 'Answer questions about orders. Look each order up before answering.',
      tools: ['lookup_order', 'order_history', 'refund_order'].map(
        (name) =>
          new ToolDefinition({
            name,
            description: `The ${name.replace('_', ' ')} tool.`,
            params: OrderParams,
            handler: (params: OrderParams) =>
              ToolResult.ok({ orderId: params.orderId, status: 'shipped' }, 'Found it.'),
          }),
      ),
    }),
  ],
});

const script: readonly ScriptedTurn[] = [
  { toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A-1' } }] },
  { toolCalls: [{ name: 'order_history', arguments: { orderId: 'A-1' } }] },
  { text: 'A-1 has shipped.', usage: { inputTokens: 300, outputTokens: 8 } },
];

/** The requests of one evaluation, and a cassette recorded from it. */
async function recorded(): Promise<{ requests: ProviderRequest[]; cassette: Cassette }> {
  const scripted = new ScriptedAdapter(script);
  const cassette = Cassette.of(scripted);
  const runtime = installAffordance(new Container(), { stateSecret: TEST_STATE_SECRET });
  await runtime.evaluate(prompt, { adapter: new RecordingAdapter(scripted, { cassette }) });
  return { requests: scripted.requests, cassette };
}

/** Fails the bench unless `turn` is the scripted answer to request `index`. */
function check(turn: ProviderTurn, index: number): void {
  const expected = script[index];
  const call = turn.toolCalls?.[0]?.name;
  if (turn.text !== (expected?.text ?? null) || call !== expected?.toolCalls?.[0]?.name) {
    throw new Error(`bench: unexpected answer ${JSON.stringify([turn.text, call])}`);
  }
}

async function once(run: number): Promise<{ first: number; third: number }> {
  const { requests, cassette } = await recorded();
  const contenders = [0, 2].flatMap((index) => {
    const request = requests[index] as ProviderRequest;
    return [
      {
        name: `scripted, request ${index + 1}`,
        run: async () => {
          check(await new ScriptedAdapter([script[index] as ScriptedTurn]).request(request), index);
        },
      },
      {
        name: `replay, request ${index + 1}`,
        run: async () => {
          check(await new ReplayAdapter({ cassette }).request(request), index);
        },
      },
    ];
  });
  const results = await compare(
    `Cassette replay against a scripted model (run ${run})`,
    contenders,
    {
      baseline: 'scripted, request 1',
      batch: 500,
      rounds: 9,
    },
  );
  const ratio = (index: number): number => {
    const ns = (name: string) => results.find((row) => row.name === name)?.medianNs ?? NaN;
    return ns(`replay, request ${index}`) / ns(`scripted, request ${index}`);
  };
  console.log(
    `  replay per request: ${formatNs(results.find((row) => row.name === 'replay, request 3')?.medianNs ?? NaN)} (request 3)`,
  );
  return { first: ratio(1), third: ratio(3) };
}

export default async function run(): Promise<void> {
  const runs: { first: number; third: number }[] = [];
  for (let index = 1; index <= 3; index++) runs.push(await once(index));
  const median = (values: number[]): number =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  console.log(
    '\nCassette replay / scripted model per request, median of 3 runs (reported, no goal):',
  );
  console.log(
    `  request 1 (prompt only):          ×${median(runs.map((r) => r.first)).toFixed(2)}`,
  );
  console.log(
    `  request 3 (two tool results):     ×${median(runs.map((r) => r.third)).toFixed(2)}`,
  );
}
