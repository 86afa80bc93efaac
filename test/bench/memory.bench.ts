/**
 * Memory per live evaluation: 1,000 evaluations run at once, each paused inside
 * its one tool call, beside a hand-written loop holding the same conversation
 * (goal of issue 12: ≤ 10 KB per evaluation). Needs `--expose-gc`, which
 * `npm run bench` passes.
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

const live = 1_000;

class LookupParams {
  @IsString() id!: string;
}

/** A model that calls `lookup` once, then answers: no state of its own. */
class OneCallModel extends ProviderAdapter {
  override readonly name = 'one-call';
  override readonly capabilities = providerCapabilities();
  override request(request: ProviderRequest): Promise<ProviderTurn> {
    if (request.turn === 0) {
      return Promise.resolve({
        toolCalls: [{ callId: 'c1', name: 'lookup', arguments: '{"id":"a-1"}' }],
      });
    }
    return Promise.resolve({ text: 'Found it.' });
  }
}

interface Gate {
  readonly reached: Promise<void>;
  readonly release: () => void;
  readonly wait: () => Promise<void>;
}

/** Lets `count` callers wait until released; `reached` settles when all of them wait. */
function gate(count: number): Gate {
  let waiting = 0;
  let reach: () => void = () => undefined;
  let open: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    reached,
    release: () => {
      open();
    },
    wait: () => {
      waiting += 1;
      if (waiting === count) reach();
      return opened;
    },
  };
}

function collect(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc (npm run bench passes it)');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

async function perEvaluation(
  start: (wait: () => Promise<void>) => Promise<unknown>,
): Promise<number> {
  const doors = gate(live);
  const before = collect();
  const runs = Array.from({ length: live }, () => start(doors.wait));
  await doors.reached;
  const after = collect();
  doors.release();
  await Promise.all(runs);
  return (after - before) / live;
}

export default async function run(): Promise<void> {
  const runtime = installAffordance(new Container());
  const adapter = new OneCallModel();
  let wait: () => Promise<void> = () => Promise.resolve();
  const prompt = new Prompt({
    ns: 'bench',
    key: 'memory',
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
            handler: async (params: LookupParams) => {
              await wait();
              return ToolResult.ok(`record ${params.id}`);
            },
          }),
        ],
      }),
    ],
  });
  // Warm up: the first evaluation fills the caches (schemas, plans) every later one shares.
  await runtime.evaluate(prompt, { adapter, input: 'Find a-1.' });

  const affordance = await perEvaluation((doors) => {
    wait = doors;
    return runtime.evaluate(prompt, { adapter, input: 'Find a-1.' });
  });
  const bare = await perEvaluation(async (doors) => {
    // What a hand-written loop holds at the same point: the conversation and the call.
    const input: unknown[] = [
      { role: 'system', content: 'Look things up.' },
      { role: 'user', content: 'Find a-1.' },
      { type: 'function_call', call_id: 'c1', name: 'lookup', arguments: '{"id":"a-1"}' },
    ];
    const args = JSON.parse('{"id":"a-1"}') as { id: string };
    await doors();
    input.push({ type: 'function_call_output', call_id: 'c1', output: `record ${args.id}` });
    return input;
  });

  const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`\nMemory per live evaluation (${live} at once, each inside its tool call)`);
  console.log(`  hand-written loop            ${kb(bare).padStart(9)}`);
  console.log(
    `  runtime.evaluate             ${kb(affordance).padStart(9)}  ×${(affordance / bare).toFixed(1)}  goal ≤ 10 KB: ${affordance <= 10 * 1024 ? 'met' : 'not met'}`,
  );
}
