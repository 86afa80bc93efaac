/**
 * `serveMcpStdio` as an MCP host uses it: the SDK's `Client` starts the server
 * as a command (a compiled fixture) and speaks MCP over its stdin and stdout.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = process.cwd();
let built: string;

beforeAll(() => {
  // Inside the project, so the compiled server resolves the project's node_modules.
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  built = mkdtempSync(join(root, 'node_modules/.cache/affordance-mcp-'));
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules/typescript/bin/tsc'),
      '-p',
      'test/mcp/fixtures/tsconfig.json',
      '--outDir',
      built,
      // Emit only: `npm run typecheck` type-checks the fixtures (tsconfig.json includes test/).
      '--noCheck',
    ],
    { cwd: root, stdio: 'pipe' },
  );
}, 180_000);

afterAll(() => {
  rmSync(built, { recursive: true, force: true });
});

describe('serveMcpStdio', () => {
  it('serves the tools to a client that starts it as a command, one session for the connection', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(built, 'test/mcp/fixtures/stdio-server.js')],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test-host', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const first = await client.callTool({ name: 'add_note', arguments: { text: 'a' } });
      const second = await client.callTool({ name: 'add_note', arguments: { text: 'b' } });
      const invalid = await client.callTool({ name: 'add_note', arguments: { text: 7 } });

      expect(client.getServerVersion()?.name).toBe('stdio-notes');
      expect(tools.map((tool) => tool.name)).toEqual(['add_note']);
      const pid = transport.pid;
      expect(pid).not.toBe(process.pid);
      expect(first.content).toEqual([{ type: 'text', text: `Noted (1 notes, pid ${pid}).` }]);
      expect(second.content).toEqual([{ type: 'text', text: `Noted (2 notes, pid ${pid}).` }]);
      expect(invalid.isError).toBe(true);
    } finally {
      await client.close();
    }
  }, 30_000);
});
