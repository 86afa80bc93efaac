/**
 * Evaluation-loop overhead of the OpenAI adapter: the same conversation — 20
 * turns of 3 function calls each, then an answer (21 requests) — driven
 * (a) by `runtime.evaluate` on the `OpenAIAdapter` (request building, argument parsing and
 * class-validator validation, call scopes, session events), (b) by a
 * hand-written loop on the bare SDK (`JSON.parse`, call the function, push
 * `function_call_output`) and (c) by the OpenAI Agents SDK's `Runner.run` on
 * its `OpenAIResponsesModel` with the same tools on zod schemas, against the
 * same local HTTP server in one run. Then the same three with the transport
 * taken out (the SDK client's `fetch` answers from memory), which leaves each
 * loop's own cost: the framework's cost per model request of 3 validated
 * calls (goal ≤ 50 µs) and its ratio to `Runner.run` (goal ≤ ×0.5).
 */
import 'reflect-metadata';

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Agent, Runner, setTracingDisabled, tool } from '@openai/agents-core';
import { OpenAIResponsesModel } from '@openai/agents-openai';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { Container } from 'inversify';
import OpenAI from 'openai';
import { z } from 'zod';

import {
  installAffordance,
  MarkdownSection,
  Prompt,
  ProviderAdapter,
  Session,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import { OpenAIAdapter, OpenAIAdapterOptions } from 'affordance/openai';
import { toJsonSchema } from 'affordance/provider';

import { compare, formatNs, microsGoal } from './measure.js';

const turns = 20;

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

/** Answers each request by how many tool outputs it already carries. */
function respond(body: { input?: { type?: string }[] }): unknown {
  const outputs = (body.input ?? []).filter((item) => item.type === 'function_call_output').length;
  const turn = outputs / 3;
  const usage = {
    input_tokens: 100 + outputs * 20,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 30,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 130 + outputs * 20,
  };
  const output =
    turn < turns
      ? Object.entries(argumentsOf(turn)).map(([name, args]) => ({
          id: `fc_${turn}_${name}`,
          type: 'function_call',
          status: 'completed',
          call_id: `call_${turn}_${name}`,
          name,
          arguments: JSON.stringify(args),
        }))
      : [
          {
            id: 'msg_final',
            type: 'message',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: 'All done.', annotations: [], logprobs: [] }],
          },
        ];
  return {
    id: `resp_${turn}`,
    object: 'response',
    created_at: 1_767_225_600,
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    model: 'gpt-bench',
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    temperature: 1,
    top_p: 1,
    metadata: {},
    usage,
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
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        input?: { type?: string }[];
      };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(respond(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
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

function adapterLoop(client: OpenAI): () => Promise<void> {
  const container = new Container();
  const runtime = installAffordance(container, { maxTurns: turns + 1 });
  container.bind(OpenAI).toConstantValue(client);
  container.bind(OpenAIAdapterOptions).toConstantValue({ model: 'gpt-bench' });
  container.bind(ProviderAdapter).to(OpenAIAdapter).inSingletonScope();
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
    key: 'openai-loop',
    sections: [
      new MarkdownSection({ key: 'math', title: 'Math', template: 'Call the tools.', tools }),
    ],
  });
  return async () => {
    const response = await runtime.evaluate(prompt, { input: 'Go.', session: new Session() });
    if (response.turns !== turns + 1)
      throw new Error(`expected ${turns + 1} turns, got ${response.turns}`);
  };
}

function bareLoop(client: OpenAI): () => Promise<void> {
  const tools = Object.entries(paramsOf).map(([name, params]) => ({
    type: 'function' as const,
    name,
    description: `The ${name} function.`,
    parameters: toJsonSchema(params, 'openai-strict').schema,
    strict: true,
  }));
  return async () => {
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Go.' }];
    for (let turn = 0; ; turn++) {
      const response = await client.responses.create(
        {
          model: 'gpt-bench',
          instructions: 'Call the tools.',
          input,
          tools,
          tool_choice: 'auto',
          parallel_tool_calls: true,
        },
        { maxRetries: 0 },
      );
      const calls = response.output.filter((item) => item.type === 'function_call');
      if (calls.length === 0) {
        if (turn !== turns) throw new Error(`expected ${turns} tool turns, got ${turn}`);
        return;
      }
      input.push(...(response.output as OpenAI.Responses.ResponseInputItem[]));
      for (const call of calls) {
        const result = functions[call.name]?.(JSON.parse(call.arguments) as Args);
        input.push({
          type: 'function_call_output',
          call_id: call.call_id,
          output: JSON.stringify(result),
        });
      }
    }
  };
}

/** The same conversation through the OpenAI Agents SDK's run loop, with the tools on zod schemas. */
function agentsLoop(client: OpenAI): () => Promise<void> {
  setTracingDisabled(true);
  const bound = z.number().int().min(-1_000_000).max(1_000_000);
  const schemas = {
    add: z.object({ a: bound, b: bound }),
    scale: z.object({ value: z.number().int(), factor: z.number().int().min(1).max(100) }),
    label: z.object({ text: z.string() }),
  };
  const agent = new Agent({
    name: 'bench',
    instructions: 'Call the tools.',
    model: new OpenAIResponsesModel(client, 'gpt-bench'),
    modelSettings: { parallelToolCalls: true, toolChoice: 'auto' },
    tools: Object.entries(schemas).map(([name, parameters]) =>
      tool({
        name,
        description: `The ${name} function.`,
        parameters,
        execute: (args: Args) => functions[name]?.(args),
      }),
    ),
  });
  const runner = new Runner({ tracingDisabled: true });
  return async () => {
    const result = await runner.run(agent, 'Go.', { maxTurns: turns + 1 });
    if (result.finalOutput !== 'All done.' || result.rawResponses.length !== turns + 1) {
      throw new Error(`unexpected run: ${result.rawResponses.length} responses`);
    }
  };
}

/** A client whose `fetch` answers from memory, as the server would: no socket, no HTTP. */
function inMemoryClient(): OpenAI {
  const fetch = (_url: unknown, init?: { body?: unknown }): Promise<Response> => {
    const body = JSON.parse(String(init?.body)) as { input?: { type?: string }[] };
    const answer = new Response(JSON.stringify(respond(body)), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
    return Promise.resolve(answer);
  };
  return new OpenAI({
    apiKey: 'sk-bench',
    baseURL: 'http://127.0.0.1:9/v1',
    maxRetries: 0,
    fetch: fetch as unknown as typeof globalThis.fetch,
  });
}

/** Runs the three loops on `client`, interleaved, and prints the table and the per-request overheads. */
async function compareLoops(
  title: string,
  client: OpenAI,
  goal: number | undefined,
  inMemory = false,
): Promise<void> {
  const bare = 'bare SDK loop (JSON.parse, no validation)';
  const agents = 'OpenAI Agents SDK Runner.run (zod)';
  const ours = 'runtime.evaluate on OpenAIAdapter';
  const rows = await compare(
    title,
    [
      { name: bare, run: bareLoop(client) },
      { name: agents, run: agentsLoop(client) },
      inMemory
        ? { name: ours, run: adapterLoop(client), goal: 0.5, goalAgainst: agents }
        : goal === undefined
          ? { name: ours, run: adapterLoop(client) }
          : { name: ours, run: adapterLoop(client), goal },
    ],
    // 20 conversations each first: measured before V8 has compiled the adapter's code, it paid for that.
    { baseline: bare, batch: 4, rounds: 15, warmup: 20 },
  );
  const [floor, peer, adapter] = rows;
  if (floor === undefined || peer === undefined || adapter === undefined) return;
  const perRequest = (row: { medianNs: number }): string =>
    formatNs((row.medianNs - floor.medianNs) / (turns + 1));
  console.log(
    `  over the bare loop, per request of 3 calls: affordance ${perRequest(adapter)}, Agents SDK ${perRequest(peer)}; ` +
      `affordance / Agents SDK: ×${(adapter.medianNs / peer.medianNs).toFixed(2)} (medians)`,
  );
  if (inMemory) {
    const framework = (adapter.medianNs - floor.medianNs) / (turns + 1);
    console.log(
      `  framework cost per model request of 3 validated calls, transport in memory: ${microsGoal(framework, 50)} ` +
        `(bare SDK loop ${formatNs(floor.medianNs / (turns + 1))} per request; ` +
        `fastest rounds: ${formatNs((adapter.minNs - floor.minNs) / (turns + 1))})`,
    );
  }
}

export default async function run(): Promise<void> {
  const server = await startServer();
  const client = new OpenAI({ apiKey: 'sk-bench', baseURL: server.baseURL, maxRetries: 0 });
  try {
    await compareLoops(
      `OpenAI loop: ${turns} turns × 3 tool calls + answer (${turns + 1} requests) on 127.0.0.1`,
      client,
      1.05,
    );
    console.log(`  server saw ${server.requests()} requests`);
  } finally {
    await server.close();
  }
  await compareLoops(
    `The same loops without the transport (the client's fetch answers from memory)`,
    inMemoryClient(),
    undefined,
    true,
  );
}
