/**
 * `AffordanceMcpModule` in a real Nest application on 127.0.0.1: the MCP SDK's
 * client calls a tool of a section that injects a request-scoped provider,
 * and each call sees the HTTP request that carried it.
 */
import { Module } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { Prompt, Section, Tool, type ToolContext, ToolResult } from 'affordance';
import { AffordanceMcpModule, AffordanceModule } from 'affordance/nest';
import { ScriptedAdapter } from 'affordance/testing';

import { Caller } from '../support/nest-caller.js';
import { listen, type RunningApp } from '../support/nest-http.js';

@Section({ key: 'desk', title: 'Desk', template: 'Tell the caller who they are.' })
class WhoamiSection {
  constructor(private readonly caller: Caller) {}

  @Tool({ name: 'whoami', description: 'Name the caller of the current request.' })
  whoami(_params: undefined, _context: ToolContext): ToolResult<null> {
    return ToolResult.ok(null, `You are ${this.caller.name} (caller #${this.caller.instance}).`);
  }
}

const deskPrompt = new Prompt({ ns: 'test/nest-mcp', key: 'desk', sections: [WhoamiSection] });

@Module({
  imports: [
    AffordanceModule.forRoot({ adapter: () => new ScriptedAdapter([]), prompts: [deskPrompt] }),
    AffordanceMcpModule.forRoot({ path: 'mcp', prompt: deskPrompt, name: 'nest-desk' }),
  ],
  providers: [Caller, WhoamiSection],
})
class McpAppModule {}

describe(AffordanceMcpModule, () => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await listen(McpAppModule);
  });

  afterAll(async () => {
    await running.app.close();
  });

  async function clientAs(name: string): Promise<Client> {
    const client = new Client({ name: 'test-host', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', running.url), {
        requestInit: { headers: { 'x-caller': name } },
      }),
    );
    return client;
  }

  it('serves the prompt at its path and resolves request-scoped providers per MCP request', async () => {
    const ada = await clientAs('ada');
    const brian = await clientAs('brian');
    try {
      const { tools } = await ada.listTools();
      const first = await ada.callTool({ name: 'whoami', arguments: {} });
      const second = await ada.callTool({ name: 'whoami', arguments: {} });
      const other = await brian.callTool({ name: 'whoami', arguments: {} });
      const text = (result: typeof first) => (result.content as { text: string }[])[0]?.text;

      expect(ada.getServerVersion()?.name).toBe('nest-desk');
      expect(tools.map((tool) => tool.name)).toEqual(['whoami']);
      expect(text(first)).toMatch(/^You are ada \(caller #\d+\)\.$/);
      expect(text(other)).toMatch(/^You are brian \(caller #\d+\)\.$/);
      // A new request-scoped Caller for each MCP request, not one per connection.
      expect(text(second)).not.toBe(text(first));
    } finally {
      await ada.close();
      await brian.close();
    }
  });

  it('refuses a missing endpoint path with a Fix', () => {
    expect(() => AffordanceMcpModule.forRoot({ path: ' ', prompt: deskPrompt })).toThrow(
      'AffordanceMcpModule.forRoot: needs the route of the MCP endpoint as path, got " ". Fix: Pass e.g. `path: \'mcp\'`',
    );
  });
});
