/**
 * Evaluation-loop cost over an AI SDK provider package: the same conversation
 * — 20 turns of 3 tool calls each, then an answer (21 requests) — on one
 * `@ai-sdk/openai-compatible` model object (the Chat Completions wire of
 * Ollama, vLLM and LM Studio), driven (a) by `runtime.evaluate` on
 * `AiSdkAdapter` (request building, argument validation, call scopes, session
 * events), (b) by the AI SDK's own `generateText` loop with the same tools in
 * zod (`stopWhen: stepCountIs(21)`), (c) by the OpenAI Agents SDK's
 * `Runner.run` with the same zod tools, its model a minimal Agents `Model` over
 * the same model object (see agents-ai-sdk-model.ts), and (d) by a
 * hand-written loop on the model's `doGenerate` (call the function on the
 * input, push the results).
 * Twice: with the provider package talking HTTP to a server on 127.0.0.1, and
 * with its `fetch` answered in memory (no socket), where the loops' own cost
 * shows. Every timed conversation is checked (turn count, final text).
 */
import 'reflect-metadata';

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Agent, Runner, setTracingDisabled, tool as agentsTool } from '@openai/agents-core';
import { generateText, stepCountIs, tool } from 'ai';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { Container } from 'inversify';
import { z } from 'zod';

import {
  installAffordance,
  MarkdownSection,
  Prompt,
  Session,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import { AiSdkAdapter } from 'affordance/ai-sdk';
import { toJsonSchema } from 'affordance/provider';

import { AgentsAiSdkModel } from './agents-ai-sdk-model.js';
import { compare, formatNs } from './measure.js';

const turns = 20;
const system = 'Call the tools.';

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

interface ChatBody {
  readonly messages?: readonly { readonly role?: string }[];
}

/** A Chat Completions answer to a request, by how many tool messages it already carries. */
function respond(body: ChatBody): string {
  const results = (body.messages ?? []).filter((message) => message.role === 'tool').length;
  const turn = results / 3;
  const calls = Object.entries(argumentsOf(turn)).map(([name, args]) => ({
    id: `call_${turn}_${name}`,
    type: 'function',
    function: { name, arguments: JSON.stringify(args) },
  }));
  const done = turn >= turns;
  return JSON.stringify({
    id: `cmpl_${turn}`,
    object: 'chat.completion',
    created: 1_750_000_000,
    model: 'bench-model',
    choices: [
      {
        index: 0,
        message: done
          ? { role: 'assistant', content: 'All done.' }
          : { role: 'assistant', content: null, tool_calls: calls },
        finish_reason: done ? 'stop' : 'tool_calls',
      },
    ],
    usage: {
      prompt_tokens: 100 + results * 20,
      completion_tokens: 30,
      total_tokens: 130 + results * 20,
    },
  });
}

async function startServer(): Promise<{ baseURL: string; close: () => Promise<void> }> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatBody;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(respond(body));
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

/** A `fetch` answering in this process, as the server would. */
const inMemoryFetch = ((_url: unknown, init?: { body?: unknown }) =>
  Promise.resolve(
    new Response(respond(JSON.parse(String(init?.body)) as ChatBody), {
      headers: { 'content-type': 'application/json' },
    }),
  )) as typeof fetch;

function modelOf(baseURL: string, fetchImpl?: typeof fetch): LanguageModelV3 {
  return createOpenAICompatible({
    name: 'bench',
    baseURL,
    ...(fetchImpl === undefined ? {} : { fetch: fetchImpl }),
  }).chatModel('bench-model');
}

function adapterLoop(model: LanguageModelV3): () => Promise<void> {
  const runtime = installAffordance(new Container(), { maxTurns: turns + 1 });
  const adapter = new AiSdkAdapter({ model, retry: { maxRetries: 0 } });
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
    key: 'ai-sdk-loop',
    sections: [new MarkdownSection({ key: 'math', title: 'Math', template: system, tools })],
  });
  return async () => {
    const response = await runtime.evaluate(prompt, {
      adapter,
      input: 'Go.',
      session: new Session(),
    });
    if (response.turns !== turns + 1 || response.text !== 'All done.')
      throw new Error(`expected ${turns + 1} turns and the answer, got ${response.turns}`);
  };
}

function generateTextLoop(model: LanguageModelV3): () => Promise<void> {
  const tools = {
    add: tool({
      description: 'The add function.',
      inputSchema: z.object({
        a: z.number().int().min(-1_000_000).max(1_000_000),
        b: z.number().int().min(-1_000_000).max(1_000_000),
      }),
      execute: (args) => functions['add']?.(args),
    }),
    scale: tool({
      description: 'The scale function.',
      inputSchema: z.object({ value: z.number().int(), factor: z.number().int().min(1).max(100) }),
      execute: (args) => functions['scale']?.(args),
    }),
    label: tool({
      description: 'The label function.',
      inputSchema: z.object({ text: z.string() }),
      execute: (args) => functions['label']?.(args),
    }),
  };
  return async () => {
    const result = await generateText({
      model,
      system,
      prompt: 'Go.',
      tools,
      stopWhen: stepCountIs(turns + 1),
      maxRetries: 0,
    });
    if (result.steps.length !== turns + 1 || result.text !== 'All done.')
      throw new Error(`expected ${turns + 1} steps and the answer, got ${result.steps.length}`);
  };
}

/** The same conversation through the OpenAI Agents SDK's run loop, with the tools on zod schemas. */
function agentsLoop(model: LanguageModelV3): () => Promise<void> {
  setTracingDisabled(true);
  const bound = z.number().int().min(-1_000_000).max(1_000_000);
  const schemas = {
    add: z.object({ a: bound, b: bound }),
    scale: z.object({ value: z.number().int(), factor: z.number().int().min(1).max(100) }),
    label: z.object({ text: z.string() }),
  };
  const agent = new Agent({
    name: 'bench',
    instructions: system,
    model: new AgentsAiSdkModel(model),
    modelSettings: { parallelToolCalls: true, toolChoice: 'auto' },
    tools: Object.entries(schemas).map(([name, parameters]) =>
      agentsTool({
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

function bareLoop(model: LanguageModelV3, withSignal = false): () => Promise<void> {
  const tools = Object.entries(paramsOf).map(([name, params]) => ({
    type: 'function' as const,
    name,
    description: `The ${name} function.`,
    inputSchema: toJsonSchema(params).schema,
  }));
  return async () => {
    const prompt: LanguageModelV3Prompt = [
      { role: 'system', content: system },
      { role: 'user', content: [{ type: 'text', text: 'Go.' }] },
    ];
    for (let turn = 0; ; turn++) {
      const result = await model.doGenerate(
        withSignal
          ? { prompt, tools, abortSignal: new AbortController().signal }
          : { prompt, tools },
      );
      const calls = result.content.filter((part) => part.type === 'tool-call');
      if (calls.length === 0) {
        const text = result.content.find((part) => part.type === 'text');
        if (turn !== turns || text?.text !== 'All done.')
          throw new Error(`expected ${turns} tool turns, got ${turn}`);
        return;
      }
      prompt.push({
        role: 'assistant',
        content: calls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          input: JSON.parse(call.input) as unknown,
        })),
      });
      prompt.push({
        role: 'tool',
        content: calls.map((call) => ({
          type: 'tool-result' as const,
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          output: {
            type: 'json' as const,
            value: functions[call.toolName]?.(JSON.parse(call.input) as Args) as never,
          },
        })),
      });
    }
  };
}

async function table(transport: string, model: LanguageModelV3): Promise<void> {
  const bare = 'bare loop on doGenerate (no validation)';
  const ours = 'runtime.evaluate on AiSdkAdapter';
  const peer = 'AI SDK generateText (tools in zod)';
  const agents = 'OpenAI Agents SDK Runner.run (zod)';
  const rows = await compare(
    `AI SDK loop, ${transport}: ${turns} turns × 3 tool calls + answer (${turns + 1} requests), @ai-sdk/openai-compatible`,
    [
      { name: bare, run: bareLoop(model) },
      // What honouring cancellation costs a request over HTTP (undici's abort listeners), for the reader.
      { name: 'bare loop, an abort signal per request', run: bareLoop(model, true) },
      { name: peer, run: generateTextLoop(model) },
      { name: agents, run: agentsLoop(model) },
      { name: ours, run: adapterLoop(model), goal: 0.8, goalAgainst: peer },
    ],
    // 60 conversations each first: V8 takes that long to settle on the runtime's and the AI SDK's code.
    { baseline: bare, batch: 4, rounds: 15, warmup: 60 },
  );
  const floor = rows.find((row) => row.name === bare);
  const own = rows.find((row) => row.name === ours);
  const runner = rows.find((row) => row.name === agents);
  if (runner !== undefined && own !== undefined) {
    // The table judges the goal against generateText; this line judges it against Runner.run (ratio of the medians).
    const ratio = own.medianNs / runner.medianNs;
    console.log(
      `  ${ours} against ${agents}: ×${ratio.toFixed(2)} (medians); ` +
        `goal ≤ ×0.80: ${ratio <= 0.8 ? 'met' : 'not met'}`,
    );
  }
  if (floor !== undefined && own !== undefined) {
    const perRequest = (own.medianNs - floor.medianNs) / (turns + 1);
    console.log(
      `  overhead over the bare loop per request (3 calls each): ${formatNs(perRequest)}; ` +
        `goal ≤ 100 µs: ${perRequest <= 100_000 ? 'met' : 'not met'} ` +
        `(fastest rounds: ${formatNs((own.minNs - floor.minNs) / (turns + 1))})`,
    );
  }
}

export default async function run(): Promise<void> {
  const server = await startServer();
  try {
    await table('HTTP on 127.0.0.1', modelOf(server.baseURL));
    await table('fetch in memory', modelOf('http://in-memory/v1', inMemoryFetch));
  } finally {
    await server.close();
  }
}
