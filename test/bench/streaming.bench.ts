/**
 * Streaming overhead: one local server streams a Responses answer of
 * {@link deltas} text deltas over SSE (each event written and flushed on its
 * own, then `response.completed`), read (a) by the bare `openai` SDK
 * (`client.responses.create({ stream: true })`, concatenating
 * `response.output_text.delta`s) and (b) by `runtime.stream(prompt, { adapter })`
 * on the `OpenAIAdapter`, consuming parts until the `answer`. Interleaved in
 * rounds in one process; reports the time per stream, the time to the first
 * text delta (each contender's own, median over the rounds) and the cost per delta.
 */
import 'reflect-metadata';

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Container } from 'inversify';
import OpenAI from 'openai';

import { installAffordance, MarkdownSection, Prompt } from 'affordance';
import { OpenAIAdapter } from 'affordance/openai';

import { compare, formatNs, microsGoal } from './measure.js';

const deltas = 200;
const batch = 4;
const rounds = 21;
const instructions = 'Answer in one long sentence.';
const pieces = Array.from({ length: deltas }, (_, i) => `word${i} `);
const expected = pieces.join('');

/** The SSE frames of one answer: created, the message opening, the deltas, the closing events, completed. */
function answerFrames(): string[] {
  const item = {
    id: 'msg_bench',
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: expected, annotations: [], logprobs: [] }],
  };
  const response = {
    id: 'resp_bench',
    object: 'response',
    created_at: 1_767_225_600,
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    model: 'gpt-bench',
    output: [item],
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    temperature: 1,
    top_p: 1,
    metadata: {},
    usage: {
      input_tokens: 20,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: deltas,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 20 + deltas,
    },
  };
  const at = { item_id: item.id, output_index: 0, content_index: 0 };
  const part = { type: 'output_text', text: '', annotations: [] };
  const events: Record<string, unknown>[] = [
    { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } },
    { type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } },
    { type: 'response.content_part.added', ...at, part },
    ...pieces.map((delta) => ({ type: 'response.output_text.delta', ...at, delta, logprobs: [] })),
    { type: 'response.output_text.done', ...at, text: expected, logprobs: [] },
    { type: 'response.content_part.done', ...at, part: item.content[0] },
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response },
  ];
  return events.map(
    (event, index) =>
      `event: ${String(event['type'])}\ndata: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`,
  );
}

async function startServer(): Promise<{ baseURL: string; close: () => Promise<void> }> {
  const frames = answerFrames();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      void (async () => {
        response.writeHead(200, {
          'content-type': 'text/event-stream',
          'cache-control': 'no-cache',
        });
        for (const frame of frames) {
          await new Promise<void>((resolve) =>
            response.write(frame, () => {
              resolve();
            }),
          );
        }
        response.end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Nanoseconds from the start of each operation to its first text delta, in the order they ran. */
type FirstDeltaTimes = number[];

function bareStream(client: OpenAI, firstDelta: FirstDeltaTimes): () => Promise<void> {
  return async () => {
    const start = process.hrtime.bigint();
    let first: bigint | undefined;
    let text = '';
    const stream = await client.responses.create(
      { model: 'gpt-bench', instructions, input: 'Go.', stream: true },
      { maxRetries: 0 },
    );
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') {
        first ??= process.hrtime.bigint();
        text += event.delta;
      }
    }
    if (first === undefined || text !== expected) throw new Error('bare SDK: unexpected text');
    firstDelta.push(Number(first - start));
  };
}

function runtimeStream(client: OpenAI, firstDelta: FirstDeltaTimes): () => Promise<void> {
  const runtime = installAffordance(new Container());
  const adapter = new OpenAIAdapter(client, { model: 'gpt-bench' });
  const prompt = new Prompt({
    ns: 'bench',
    key: 'streaming',
    sections: [new MarkdownSection({ key: 'answer', title: 'Answer', template: instructions })],
  });
  return async () => {
    const start = process.hrtime.bigint();
    let first: bigint | undefined;
    let text = '';
    let answer: string | null = null;
    for await (const part of runtime.stream(prompt, { input: 'Go.', adapter })) {
      if (part.type === 'text-delta') {
        first ??= process.hrtime.bigint();
        text += part.delta;
      } else if (part.type === 'answer') answer = part.response.text;
      else if (part.type === 'error') throw part.error;
    }
    if (first === undefined || text !== expected || answer !== expected) {
      throw new Error('runtime.stream: unexpected text');
    }
    firstDelta.push(Number(first - start));
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Per round (after the warm-up batch), the median time to the first delta. */
const perRound = (times: FirstDeltaTimes): number[] =>
  Array.from({ length: rounds }, (_, round) =>
    median(times.slice(batch + round * batch, batch + (round + 1) * batch)),
  );

function printFirstDelta(bareName: string, bare: FirstDeltaTimes, ours: FirstDeltaTimes): void {
  const base = perRound(bare);
  const own = perRound(ours);
  const ratio = median(own.map((ns, round) => ns / (base[round] as number)));
  const verdict = ratio <= 1.05 ? 'met' : 'not met';
  const extra = median(own.map((ns, round) => ns - (base[round] as number)));
  console.log(`\nTime to the first text delta (same rounds; ratio to ${bareName})`);
  console.log(`  ${bareName}: ${formatNs(median(base))}`);
  console.log(
    `  runtime.stream on OpenAIAdapter: ${formatNs(median(own))}  ×${ratio.toFixed(2)}  ≤ ×1.05: ${verdict}`,
  );
  console.log(
    `  first text later than the bare SDK's by (median of rounds): ${microsGoal(extra, 100)}`,
  );
}

export default async function run(): Promise<void> {
  const server = await startServer();
  const client = new OpenAI({ apiKey: 'sk-bench', baseURL: server.baseURL, maxRetries: 0 });
  const bareFirst: FirstDeltaTimes = [];
  const oursFirst: FirstDeltaTimes = [];
  try {
    const bare = 'bare SDK stream (concatenating deltas)';
    const rows = await compare(
      `Streaming one Responses answer of ${deltas} text deltas over SSE from 127.0.0.1`,
      [
        { name: bare, run: bareStream(client, bareFirst) },
        {
          name: 'runtime.stream on OpenAIAdapter',
          run: runtimeStream(client, oursFirst),
          goal: 1.05,
        },
      ],
      { baseline: bare, batch, rounds },
    );
    printFirstDelta(bare, bareFirst, oursFirst);
    const [floor, ours] = rows;
    if (floor !== undefined && ours !== undefined) {
      console.log(
        `  overhead per text delta: ${microsGoal((ours.medianNs - floor.medianNs) / deltas, 2)} ` +
          `((runtime.stream − bare SDK) / ${deltas}, from the median times per stream)`,
      );
    }
  } finally {
    await server.close();
  }
}
