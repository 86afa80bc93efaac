/**
 * `AffordanceMcpModule` behind the application's own access control, in a
 * real Nest application on 127.0.0.1: its `guards` run before every request
 * to the endpoint, and the handler's Host, Origin and session limits pass
 * through `forRoot` (docs/guide/mcp.md).
 */
import { request } from 'node:http';

import { type CanActivate, type ExecutionContext, Injectable, Module } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { Prompt, Section, Tool, type ToolContext, ToolResult } from 'affordance';
import { AffordanceMcpModule, AffordanceModule } from 'affordance/nest';
import { ScriptedAdapter } from 'affordance/testing';

import { listen, type RunningApp } from '../support/nest-http.js';
import { initializeBody, POST_HEADERS } from './mcp-endpoint.js';

@Section({ key: 'desk', title: 'Desk', template: 'Answer.' })
class DeskSection {
  @Tool({ name: 'ping', description: 'Answer pong.' })
  ping(_params: undefined, _context: ToolContext): ToolResult<null> {
    return ToolResult.ok(null, 'pong');
  }
}

const deskPrompt = new Prompt({ ns: 'test/nest-mcp-access', key: 'desk', sections: [DeskSection] });

/** Lets a request through only with the right API key. */
@Injectable()
class ApiKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>();
    return req.headers['x-api-key'] === 'k3y';
  }
}

@Module({
  imports: [
    AffordanceModule.forRoot({ adapter: () => new ScriptedAdapter([]), prompts: [deskPrompt] }),
    AffordanceMcpModule.forRoot({
      path: 'mcp',
      prompt: deskPrompt,
      guards: [ApiKeyGuard],
      maxSessions: 1,
    }),
  ],
  providers: [DeskSection],
})
class GuardedAppModule {}

/** POSTs an initialize to `url` with node:http (which lets the test set Host). */
function initialize(
  url: URL,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { ...POST_HEADERS, ...headers } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, text });
        });
      },
    );
    req.on('error', reject);
    req.end(initializeBody());
  });
}

describe('AffordanceMcpModule behind access control', () => {
  let running: RunningApp;
  let url: URL;

  beforeAll(async () => {
    running = await listen(GuardedAppModule);
    url = new URL('/mcp', running.url);
  });

  afterAll(async () => {
    await running.app.close();
  });

  it("runs the module's guards before every request to the endpoint", async () => {
    const refused = await initialize(url, {});
    const client = new Client({ name: 'hardening', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-api-key': 'k3y' } } }),
    );
    try {
      const listed = await client.listTools();

      expect(refused.status).toBe(403);
      expect(listed.tools.map((tool) => tool.name)).toEqual(['ping']);
      // The session is full (maxSessions: 1), and a foreign Host is refused (loopback by default).
      expect((await initialize(url, { 'x-api-key': 'k3y' })).status).toBe(503);
      expect((await initialize(url, { 'x-api-key': 'k3y', host: 'evil.example' })).status).toBe(
        403,
      );
    } finally {
      await client.close();
    }
  });
});
