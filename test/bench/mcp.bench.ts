/**
 * One MCP tool call, from the client's `callTool` to the result it reads,
 * over the SDK's in-memory transport (no network: the servers' own work is
 * what differs), interleaved:
 * - the SDK's own `McpServer` with the tool registered with a zod schema, the
 *   server a user would otherwise write: the baseline;
 * - affordance's `McpToolServer` serving the same tool declared with a
 *   class-validator params class: validated, run in its call scope and
 *   recorded as a `ToolInvoked` in the connection's session (goal ≤ ×1.25);
 *   and the same tool declared `synchronous`, whose calls leave promise hooks
 *   off (a plain handler turns them on and off once per call here, each call
 *   arriving in its own turn of the event loop); and the first tool called by a
 *   client that listed the tools first, as clients do (after each call the
 *   server checks whether the list it sent changed).
 *
 * Every answer timed is checked: an `isError` result, or a text other than
 * the tool's, stops the bench instead of being timed as a success.
 */
import 'reflect-metadata';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { IsInt, IsString, Min } from 'class-validator';
import { Container } from 'inversify';
import { z } from 'zod';

import { installAffordance, MarkdownSection, Prompt, ToolDefinition, ToolResult } from 'affordance';
import { McpToolServer } from 'affordance/mcp';

import { compare } from './measure.js';

class ChargeParams {
  @IsString() orderId!: string;
  @IsInt() @Min(1) amount!: number;
}

const call = { name: 'charge', arguments: { orderId: 'A-1', amount: 3 } };
const syncCall = { name: 'charge_sync', arguments: call.arguments };
const expectedText = 'Charged 3 to A-1.';

/** Calls `request` on `client` and fails unless the answer is the tool's own success. */
async function checkedCall(client: Client, request: typeof call): Promise<void> {
  const result = await client.callTool(request);
  const content = result.content as { type: string; text?: string }[];
  if (result.isError === true || content[0]?.text !== expectedText) {
    throw new Error(`${request.name} answered ${JSON.stringify(result)}, not '${expectedText}'`);
  }
}

async function connected(server: { connect(transport: InMemoryTransport): Promise<void> }) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

export default async function main(): Promise<void> {
  const sdk = new McpServer({ name: 'sdk', version: '1.0.0' });
  sdk.registerTool(
    'charge',
    {
      description: 'Charge an order.',
      inputSchema: { orderId: z.string(), amount: z.number().int().min(1) },
    },
    ({ orderId, amount }) => ({
      content: [{ type: 'text', text: `Charged ${amount} to ${orderId}.` }],
    }),
  );
  const prompt = new Prompt({
    ns: 'bench',
    key: 'mcp',
    sections: [
      new MarkdownSection({
        key: 'desk',
        title: 'Desk',
        template: 'Charge orders.',
        tools: [
          new ToolDefinition({
            name: 'charge',
            description: 'Charge an order.',
            params: ChargeParams,
            handler: (params) =>
              ToolResult.ok(null, `Charged ${params.amount} to ${params.orderId}.`),
          }),
          // The same tool declared synchronous: its calls leave promise hooks off.
          new ToolDefinition({
            name: 'charge_sync',
            description: 'Charge an order.',
            params: ChargeParams,
            synchronous: true,
            handler: (params) =>
              ToolResult.ok(null, `Charged ${params.amount} to ${params.orderId}.`),
          }),
        ],
      }),
    ],
  });
  // One connection, one session: its log of ToolInvoked grows through the run, as a long-lived client's does.
  const served = new McpToolServer({ runtime: installAffordance(new Container()), prompt });
  const sdkClient = await connected(sdk);
  const ourClient = await connected(await served.createServer());
  const listingClient = await connected(await served.createServer());
  const listed = await listingClient.listTools();
  if (listed.tools.length !== 2) throw new Error(`listed ${listed.tools.length} tools, not 2`);
  await compare(
    'One MCP tool call over the in-memory transport (client callTool → result)',
    [
      { name: 'SDK McpServer, zod schema', run: () => checkedCall(sdkClient, call) },
      {
        name: 'affordance McpToolServer, class-validator params, recorded',
        run: () => checkedCall(ourClient, call),
        goal: 1.25,
      },
      {
        name: 'the same, handler declared synchronous',
        run: () => checkedCall(ourClient, syncCall),
        goal: 1.25,
      },
      {
        name: 'the first, for a client that listed the tools',
        run: () => checkedCall(listingClient, call),
        goal: 1.25,
      },
    ],
    { baseline: 'SDK McpServer, zod schema', batch: 500, rounds: 21 },
  );
  await sdkClient.close();
  await ourClient.close();
  await listingClient.close();
}
