/**
 * Memory per tool turn: many evaluations run at once, each paused at a
 * barrier (inside its model's request) after N tool turns of 3 calls, for
 * N = 0, 1, 3 and 10, beside a hand-written loop holding the same
 * conversation at the same point. Reports the curve, the cost per turn, and
 * whether anything outlives the evaluations once they finished (goal of issue
 * 38: ≤ 1.5 KB per tool turn of 3 calls, ≤ 10 KB after three turns, nothing
 * retained). Needs `--expose-gc`, which `npm run bench` passes.
 */
import 'reflect-metadata';

import { IsString } from 'class-validator';
import { Container } from 'inversify';

import {
  installAffordance,
  MarkdownSection,
  Prompt,
  ToolDefinition,
  ToolResult,
} from '../../src/index.js';
import {
  providerCapabilities,
  ProviderAdapter,
  type ProviderRequest,
  type ProviderTurn,
} from '../../src/provider/index.js';

const live = 400;
const turnCounts = [0, 1, 3, 10] as const;
const rounds = 3;

class LookupParams {
  @IsString() id!: string;
}

/** Pauses every evaluation at `barrier` until released; `reached` settles once all `count` wait there. */
class Barrier {
  waiting = 0;
  readonly reached: Promise<void>;
  readonly opened: Promise<void>;
  #reach: () => void = () => undefined;
  #open: () => void = () => undefined;

  constructor(readonly count: number) {
    this.reached = new Promise<void>((resolve) => (this.#reach = resolve));
    this.opened = new Promise<void>((resolve) => (this.#open = resolve));
  }

  wait(): Promise<void> {
    this.waiting += 1;
    if (this.waiting === this.count) this.#reach();
    return this.opened;
  }

  release(): void {
    this.#open();
  }

  /** A barrier no run waits at. */
  static open(): Barrier {
    const barrier = new Barrier(1);
    barrier.release();
    return barrier;
  }
}

/** The 3 calls of turn `turn`, the same for both contenders. */
function callsOf(turn: number): { callId: string; name: string; arguments: string }[] {
  return [0, 1, 2].map((index) => ({
    callId: `call_${turn}_${index}`,
    name: 'lookup',
    arguments: `{"id":"r-${turn}-${index}"}`,
  }));
}

/** A model that calls `lookup` three times per turn for `turns` turns, waits at the barrier, then answers. */
class TurnsModel extends ProviderAdapter {
  override readonly name = 'turns';
  override readonly capabilities = providerCapabilities();
  turns = 0;
  barrier: Barrier | undefined;

  override async request(request: ProviderRequest): Promise<ProviderTurn> {
    if (request.turn < this.turns) return { toolCalls: callsOf(request.turn) };
    // Every earlier turn's 3 results must be in the conversation the model reads.
    const results = request.messages.filter((message) => message.role === 'tool').length;
    if (results !== 3 * this.turns) throw new Error(`expected ${3 * this.turns} results`);
    await this.barrier?.wait();
    return { text: 'Found them.' };
  }
}

function collect(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc (npm run bench passes it)');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Bytes held per live run at the barrier; `start` starts one run that waits at `barrier`. */
async function heldAtBarrier(
  start: (barrier: Barrier) => Promise<unknown>,
  check: (result: unknown) => void,
): Promise<number> {
  const barrier = new Barrier(live);
  const before = collect();
  const runs = Array.from({ length: live }, () => start(barrier));
  await barrier.reached;
  const after = collect();
  barrier.release();
  for (const result of await Promise.all(runs)) check(result);
  return (after - before) / live;
}

/** What a hand-written loop keeps: the conversation (Responses API items), paused at the same point. */
async function bareLoop(turns: number, barrier: Barrier): Promise<unknown[]> {
  const input: unknown[] = [
    { role: 'system', content: 'Look things up.' },
    { role: 'user', content: 'Find them.' },
  ];
  for (let turn = 0; turn < turns; turn++) {
    const calls = callsOf(turn);
    for (const call of calls) {
      input.push({ type: 'function_call', ...call });
    }
    for (const call of calls) {
      const args = JSON.parse(call.arguments) as { id: string };
      input.push({
        type: 'function_call_output',
        call_id: call.callId,
        output: `record ${args.id}`,
      });
    }
    await Promise.resolve();
  }
  await barrier.wait();
  return input;
}

/** Collects and turns the event loop until every response registered so far was finalized (or 20 turns). */
async function settleFinalizers(): Promise<void> {
  for (let tick = 0; tick < 20; tick++) {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KB`;

export default async function run(): Promise<void> {
  const runtime = installAffordance(new Container());
  const model = new TurnsModel();
  /** The responses of the evaluations measured (each holds its calls' records), to see them collected. */
  let finalized = 0;
  const registry = new FinalizationRegistry<null>(() => (finalized += 1));
  let tracked = 0;
  const prompt = new Prompt({
    ns: 'bench',
    key: 'memory-turns',
    sections: [
      new MarkdownSection({
        key: 'lookup',
        title: 'Lookup',
        template: 'Look things up.',
        tools: [
          new ToolDefinition({
            name: 'lookup',
            description: 'Looks up an id.',
            params: LookupParams,
            handler: (params: LookupParams) => ToolResult.ok(`record ${params.id}`),
          }),
        ],
      }),
    ],
  });
  const evaluate = (barrier: Barrier): Promise<unknown> => {
    model.barrier = barrier;
    return runtime.evaluate(prompt, { adapter: model, input: 'Find them.' });
  };
  const checkEvaluation = (turns: number) => (result: unknown) => {
    const response = result as { text?: string; toolCalls: readonly unknown[] };
    if (response.text !== 'Found them.' || response.toolCalls.length !== 3 * turns) {
      throw new Error('an evaluation ended without its answer or its calls');
    }
    registry.register(response, null);
    tracked += 1;
  };
  const checkBare = (turns: number) => (result: unknown) => {
    if ((result as unknown[]).length !== 2 + 6 * turns) throw new Error('bare loop lost items');
  };
  // Warm up: the first evaluations fill the caches (schemas, plans) every later one shares.
  for (const turns of turnCounts) {
    model.turns = turns;
    await evaluate(Barrier.open());
    await bareLoop(turns, Barrier.open());
  }

  const ours = new Map<number, number[]>(turnCounts.map((turns) => [turns, []]));
  const bare = new Map<number, number[]>(turnCounts.map((turns) => [turns, []]));
  /** The heap after each round, once its runs ended and were collected. */
  const heapAfterRound: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const turns of turnCounts) {
      model.turns = turns;
      const first = round % 2 === 0;
      if (first) ours.get(turns)?.push(await heldAtBarrier(evaluate, checkEvaluation(turns)));
      bare.get(turns)?.push(await heldAtBarrier((b) => bareLoop(turns, b), checkBare(turns)));
      if (!first) ours.get(turns)?.push(await heldAtBarrier(evaluate, checkEvaluation(turns)));
    }
    // Let the finalizers of the responses just collected run (their registry entries go with them).
    await settleFinalizers();
    heapAfterRound.push(collect());
  }

  const at = (map: Map<number, number[]>, turns: number): number => median(map.get(turns) ?? []);
  console.log(
    `\nMemory per live evaluation after N tool turns of 3 calls (${live} at once, paused at a barrier in the model's request, median of ${rounds} rounds)`,
  );
  console.log(`  turns N   runtime.evaluate   hand-written loop   difference`);
  for (const turns of turnCounts) {
    const mine = at(ours, turns);
    const theirs = at(bare, turns);
    console.log(
      `  ${String(turns).padStart(7)}   ${kb(mine).padStart(16)}   ${kb(theirs).padStart(17)}   ${kb(mine - theirs).padStart(10)}`,
    );
  }
  const perTurn = (at(ours, 10) - at(ours, 0)) / 10;
  const bareTurn = (at(bare, 10) - at(bare, 0)) / 10;
  const firstTurn = at(ours, 1) - at(ours, 0);
  const afterThree = at(ours, 3);
  console.log(
    `  per tool turn (N = 0 → 10)  ${kb(perTurn)} (first turn ${kb(firstTurn)}; hand-written loop ${kb(bareTurn)})  goal ≤ 1.5 KB: ${perTurn <= 1.5 * 1024 ? 'met' : 'not met'}`,
  );
  console.log(
    `  after three turns            ${kb(afterThree)}  goal ≤ 10 KB: ${afterThree <= 10 * 1024 ? 'met' : 'not met'}`,
  );
  // The first round also compiles code; growth from its end to the last round's is what runs leave behind.
  const later = (rounds - 1) * turnCounts.length * live;
  const left = ((heapAfterRound.at(-1) ?? 0) - (heapAfterRound[0] ?? 0)) / later;
  console.log(
    `  after the evaluations ended  ${finalized} of ${tracked} responses collected (heap growth ${left.toFixed(0)} bytes per evaluation over rounds 2-${rounds})  goal: nothing retained: ${finalized === tracked ? 'met' : 'not met'}`,
  );
}
