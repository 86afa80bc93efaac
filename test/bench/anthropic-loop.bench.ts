/**
 * Evaluation-loop overhead of the Anthropic adapter: the same conversation — 20
 * turns of 3 tool uses each, then an answer (21 requests) — driven (a) by
 * `runtime.evaluate` on the `AnthropicAdapter` (request building, argument
 * validation, call scopes, session events) and (b) by a hand-written loop on
 * the bare `@anthropic-ai/sdk` (call the function on `input`, push
 * `tool_result` blocks), against the same local HTTP server in one run; then
 * the same two with the transport taken out (the client's `fetch` answers
 * from memory), which leaves the framework's cost per model request of 3
 * validated calls (goal ≤ 50 µs).
 */
import 'reflect-metadata';

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import Anthropic from '@anthropic-ai/sdk';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { Container } from 'inversify';

import {
  installAffordance,
  MarkdownSection,
  Prompt,
  Session,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import { AnthropicAdapter } from 'affordance/anthropic';
import { toJsonSchema } from 'affordance/provider';

import { compare, formatNs, microsGoal } from './measure.js';

const turns = 20;
const model = 'claude-bench';

class AddParams {
  @IsInt() @Min(-1_000_000) @Max(1_000_000) a!: number;
  @IsInt() @Min(-1_000_000) @Max(1_000_000) b!: number;
}
class ScaleParams {
  @IsInt() value!: number;
  @IsInt() @Min(1) @Max(100) factor!: number;
}
class LabelParams {
  @IsString() text!: string;
}

type Args = Record<string, unknown>;
const functions: Record<string, (args: Args) => unknown> = {
  add: (args) => ({ sum: (args['a'] as number) + (args['b'] as number) }),
  scale: (args) => ({ value: (args['value'] as number) * (args['factor'] as number) }),
  label: (args) => ({ label: String(args['text']).toUpperCase() }),
};
const paramsOf = { add: AddParams, scale: ScaleParams, label: LabelParams } as const;
const argumentsOf = (turn: number): Record<keyof typeof paramsOf, Args> => ({
  add: { a: turn, b: 2 },
  scale: { value: turn, factor: 3 },
  label: { text: `turn ${turn}` },
});

interface MessagesBody {
  readonly messages?: readonly { readonly content?: unknown }[];
}

/** Answers each request by how many `tool_result` blocks it already carries. */
function respond(body: MessagesBody): unknown {
  let results = 0;
  for (const message of body.messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as { type?: string }[]) {
      if (block.type === 'tool_result') results += 1;
    }
  }
  const turn = results / 3;
  const content =
    turn < turns
      ? Object.entries(argumentsOf(turn)).map(([name, input]) => ({
          type: 'tool_use',
          id: `toolu_${turn}_${name}`,
          name,
          input,
        }))
      : [{ type: 'text', text: 'All done.', citations: null }];
  return {
    id: `msg_${turn}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: turn < turns ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: 100 + results * 20,
      output_tokens: 30,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  };
}

async function startServer(): Promise<{
  baseURL: string;
  requests: () => number;
  close: () => Promise<void>;
}> {
  let requests = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests += 1;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as MessagesBody;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(respond(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

function adapterLoop(client: Anthropic): () => Promise<void> {
  const runtime = installAffordance(new Container(), { maxTurns: turns + 1 });
  const adapter = new AnthropicAdapter(client, { model });
  const tools = Object.entries(paramsOf).map(
    ([name, params]) =>
      new ToolDefinition<object>({
        name,
        description: `The ${name} function.`,
        params,
        handler: (args) => ToolResult.ok(functions[name]?.(args as Args)),
      }),
  );
  const prompt = new Prompt({
    ns: 'bench',
    key: 'anthropic-loop',
    sections: [
      new MarkdownSection({ key: 'math', title: 'Math', template: 'Call the tools.', tools }),
    ],
  });
  return async () => {
    const response = await runtime.evaluate(prompt, {
      adapter,
      input: 'Go.',
      session: new Session(),
    });
    if (response.turns !== turns + 1)
      throw new Error(`expected ${turns + 1} turns, got ${response.turns}`);
  };
}

function bareLoop(client: Anthropic): () => Promise<void> {
  const tools = Object.entries(paramsOf).map(([name, params]) => ({
    name,
    description: `The ${name} function.`,
    input_schema: toJsonSchema(params).schema as Anthropic.Messages.Tool.InputSchema,
  }));
  return async () => {
    const messages: Anthropic.Messages.MessageParam[] = [{ role: 'user', content: 'Go.' }];
    for (let turn = 0; ; turn++) {
      const response = await client.messages.create(
        { model, max_tokens: 4096, system: 'Call the tools.', messages, tools },
        { maxRetries: 0 },
      );
      const uses = response.content.filter((block) => block.type === 'tool_use');
      if (uses.length === 0) {
        if (turn !== turns) throw new Error(`expected ${turns} tool turns, got ${turn}`);
        return;
      }
      messages.push({ role: 'assistant', content: response.content });
      messages.push({
        role: 'user',
        content: uses.map((use) => ({
          type: 'tool_result' as const,
          tool_use_id: use.id,
          content: JSON.stringify(functions[use.name]?.(use.input as Args)),
        })),
      });
    }
  };
}

/** A client whose `fetch` answers from memory, as the server would: no socket, no HTTP. */
function inMemoryClient(): Anthropic {
  const fetch = (_url: unknown, init?: { body?: unknown }): Promise<Response> => {
    const body = JSON.parse(String(init?.body)) as MessagesBody;
    const answer = new Response(JSON.stringify(respond(body)), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
    return Promise.resolve(answer);
  };
  return new Anthropic({
    apiKey: 'sk-ant-bench',
    baseURL: 'http://127.0.0.1:9',
    maxRetries: 0,
    fetch: fetch as unknown as typeof globalThis.fetch,
  });
}

/** Runs both loops on `client`, interleaved; prints the table and the cost per request over the bare loop. */
async function compareLoops(
  title: string,
  client: Anthropic,
  goal: number | undefined,
): Promise<{ median: number; fastest: number }> {
  const bare = 'bare SDK loop (no validation)';
  const ours = 'runtime.evaluate on AnthropicAdapter';
  const rows = await compare(
    title,
    [
      { name: bare, run: bareLoop(client) },
      goal === undefined
        ? { name: ours, run: adapterLoop(client) }
        : { name: ours, run: adapterLoop(client), goal },
    ],
    // 20 conversations each first: measured before V8 has compiled the adapter's code, it paid for that.
    { baseline: bare, batch: 4, rounds: 15, warmup: 20 },
  );
  const [floor, adapter] = rows;
  if (floor === undefined || adapter === undefined) return { median: NaN, fastest: NaN };
  return {
    median: (adapter.medianNs - floor.medianNs) / (turns + 1),
    fastest: (adapter.minNs - floor.minNs) / (turns + 1),
  };
}

export default async function run(): Promise<void> {
  const server = await startServer();
  const client = new Anthropic({ apiKey: 'sk-ant-bench', baseURL: server.baseURL, maxRetries: 0 });
  try {
    const perRequest = await compareLoops(
      `Anthropic loop: ${turns} turns × 3 tool uses + answer (${turns + 1} requests) on 127.0.0.1`,
      client,
      1.05,
    );
    console.log(
      `  adapter overhead per request (3 calls each): ${formatNs(perRequest.median)} ` +
        `(fastest rounds: ${formatNs(perRequest.fastest)}); server saw ${server.requests()} requests`,
    );
  } finally {
    await server.close();
  }
  const framework = await compareLoops(
    "The same loops without the transport (the client's fetch answers from memory)",
    inMemoryClient(),
    undefined,
  );
  console.log(
    `  framework cost per model request of 3 validated calls, transport in memory: ${microsGoal(framework.median, 50)} ` +
      `(fastest rounds: ${formatNs(framework.fastest)})`,
  );
}
