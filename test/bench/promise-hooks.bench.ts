/**
 * What an enabled `AsyncLocalStorage` costs the rest of the process on Node
 * 20 (it turns on promise hooks, which every promise then pays for), and
 * whether affordance leaves one enabled after its work: a tool call on
 * `runtime.evaluate`, an evaluation and a stream of `AffordanceService` in a
 * Nest application context, and an MCP call served by `McpHttpHandler` on
 * 127.0.0.1 (the client still connected). Goal for each: off once the work
 * has ended, checked a turn of the event loop later. On Node 24 an
 * `AsyncLocalStorage` makes no promise hooks, so every check reads "off".
 */
import 'reflect-metadata';

import { AsyncLocalStorage, executionAsyncId } from 'node:async_hooks';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Module } from '@nestjs/common';
import { NestApplicationContextOptions } from '@nestjs/common/interfaces/nest-application-context-options.interface.js';
import { NestFactory } from '@nestjs/core';
import { Container } from 'inversify';

import {
  installAffordance,
  MarkdownSection,
  Prompt,
  ProviderAdapter,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import { McpHttpHandler, McpToolServer } from 'affordance/mcp';
import { AffordanceModule, AffordanceService } from 'affordance/nest';
import { providerCapabilities, type ProviderRequest, type ProviderTurn } from 'affordance/provider';
import { ScriptedAdapter } from 'affordance/testing';

import { compare } from './measure.js';

/** 100 awaited `then`s: application code that makes promises. */
async function applicationPromises(): Promise<number> {
  let sum = 0;
  for (let i = 0; i < 100; i++) sum += await Promise.resolve(i).then((value) => value + 1);
  return sum;
}

/** Whether promises made now are tracked, asked a turn of the event loop later. */
async function hooksOn(): Promise<boolean> {
  await new Promise((resolve) => setImmediate(resolve));
  await Promise.resolve();
  return executionAsyncId() !== 0;
}

/** Calls the prompt's only tool on the first turn, then answers. */
class OneCall extends ProviderAdapter {
  override readonly name = 'one-call';
  override readonly capabilities = providerCapabilities();

  override request(request: ProviderRequest): Promise<ProviderTurn> {
    return Promise.resolve(
      request.turn === 0
        ? { toolCalls: [{ callId: 'c', name: 'probe', arguments: '{}' }] }
        : { text: 'Done.' },
    );
  }
}

const prompt = new Prompt({
  ns: 'bench',
  key: 'promise-hooks',
  sections: [
    new MarkdownSection({
      key: 'work',
      title: 'Work',
      template: 'Work.',
      tools: [
        // A plain handler: its call tracks its frame while it runs.
        new ToolDefinition({
          name: 'probe',
          description: 'Answers at once.',
          handler: () => ToolResult.ok('probed'),
        }),
      ],
    }),
  ],
});

@Module({
  imports: [AffordanceModule.forRoot({ adapter: () => new OneCall(), prompts: [prompt] })],
})
class BenchModule {}

async function viaRuntime(): Promise<void> {
  const runtime = installAffordance(new Container());
  await runtime.evaluate(prompt, {
    adapter: new ScriptedAdapter([{ toolCalls: [{ name: 'probe' }] }, { text: 'Done.' }]),
  });
}

async function viaMcp(): Promise<() => Promise<void>> {
  const handler = new McpHttpHandler(
    new McpToolServer({ runtime: installAffordance(new Container()), prompt }),
  );
  const server = createServer((request, response) => {
    handler.handle(request, response).catch((error: unknown) => {
      console.error(error);
      response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  await client.callTool({ name: 'probe', arguments: {} });
  return async () => {
    await client.close();
    await handler.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
}

export default async function run(): Promise<void> {
  const storage = new AsyncLocalStorage<number>();
  await compare(
    'Application promises (100 awaited then), with and without an enabled AsyncLocalStorage',
    [
      { name: 'no AsyncLocalStorage enabled', run: applicationPromises },
      {
        name: 'one AsyncLocalStorage enabled',
        run: async () => {
          await storage.run(1, applicationPromises);
          storage.disable();
        },
      },
    ],
    { baseline: 'no AsyncLocalStorage enabled', batch: 200, rounds: 15 },
  );

  const app = await NestFactory.createApplicationContext(
    BenchModule,
    Object.assign(new NestApplicationContextOptions(), { logger: false as const }),
  );
  const affordance = app.get(AffordanceService);
  const checks: [string, () => Promise<unknown>][] = [
    ['before any work', () => Promise.resolve()],
    ['after a plain tool call on runtime.evaluate', viaRuntime],
    ['after an AffordanceService evaluation', () => affordance.evaluate(prompt, { input: 'Go.' })],
    [
      'after an AffordanceService stream read to its end',
      async () => {
        let parts = 0;
        for await (const part of affordance.stream(prompt, { input: 'Go.' }))
          parts += part.type === 'answer' ? 1 : 0;
        if (parts !== 1) throw new Error('the stream gave no answer');
      },
    ],
  ];
  console.log(`\nPromise hooks once the work has ended (Node ${process.version}; goal: off)`);
  const report = (what: string, on: boolean): void => {
    console.log(`  ${what.padEnd(64)} ${on ? 'on ' : 'off'}  ${on ? 'not met' : 'met'}`);
  };
  for (const [what, work] of checks) {
    await work();
    report(what, await hooksOn());
  }
  await app.close();
  const closeMcp = await viaMcp();
  report('after an MCP call served by McpHttpHandler (client connected)', await hooksOn());
  await closeMcp();
}
