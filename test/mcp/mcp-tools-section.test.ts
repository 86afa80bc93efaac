/**
 * `McpToolsSection` against a server written with the SDK (weather-server.ts):
 * over the SDK's in-memory transport, over Streamable HTTP on 127.0.0.1, and
 * inside an evaluation whose scripted model calls an MCP tool and a local tool
 * in one turn.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Container } from 'inversify';
import { z } from 'zod';

import {
  ConfigurationError,
  installAffordance,
  MarkdownSection,
  Prompt,
  Session,
  ToolDefinition,
  ToolInvoked,
  type ToolProgress,
  ToolResult,
} from 'affordance';
import { McpToolsSection, type McpToolsSectionOptions } from 'affordance/mcp';
import { ScriptedAdapter } from 'affordance/testing';

import { eventually } from './eventually.js';
import { weatherServer, type WeatherLog } from './weather-server.js';

const sections: McpToolsSection[] = [];

function newLog(): WeatherLog {
  return { calls: [], cancelled: undefined, servers: [] };
}

/** A section on a fresh in-memory connection to a new weather server per connection. */
async function inMemory(
  log: WeatherLog,
  options: Partial<McpToolsSectionOptions> = {},
  server: { union?: boolean; odd?: boolean; backreference?: boolean } = {},
): Promise<McpToolsSection> {
  const section = await McpToolsSection.connect({
    key: 'weather',
    server: {
      transport: () => {
        const [client, serverSide] = InMemoryTransport.createLinkedPair();
        void weatherServer(log, server).connect(serverSide);
        return client;
      },
    },
    retryDelayMs: 1,
    ...options,
  });
  sections.push(section);
  return section;
}

function promptWith(section: McpToolsSection, local: ToolDefinition[] = []): Prompt {
  return new Prompt({
    ns: 'test',
    key: 'weather-agent',
    sections: [
      new MarkdownSection({ key: 'desk', title: 'Desk', template: 'Help.', tools: local }),
      section,
    ],
  });
}

afterEach(async () => {
  for (const section of sections.splice(0)) await section.close();
});

describe('McpToolsSection', () => {
  it("offers the server's tools with schemas built from theirs, and its instructions as the body", async () => {
    const section = await inMemory(newLog());
    const rendered = promptWith(section).render();

    expect(section.serverName).toBe('weather');
    expect(section.tools.map((tool) => tool.name)).toEqual([
      'get_forecast',
      'close_station',
      'watch_storm',
      'unlock_radar',
    ]);
    expect(section.tools[0]?.readOnly).toBe(true);
    expect(rendered.text).toContain('Forecasts come from the weather service; cite the city.');
    expect(rendered.tools.map((tool) => tool.name)).toContain('get_forecast');
  });

  it('validates arguments before sending, maps results and server errors, and forwards progress', async () => {
    const log = newLog();
    const prompt = promptWith(await inMemory(log));
    const runtime = installAffordance(new Container());
    const progress: ToolProgress[] = [];

    const invalid = await runtime.callTool(prompt, {
      name: 'get_forecast',
      arguments: { city: 'Lyon', days: 9 },
    });
    const forecast = await runtime.callTool(prompt, {
      name: 'get_forecast',
      arguments: '{"city":"Lyon","days":2}',
    });
    const refused = await runtime.callTool(prompt, {
      name: 'close_station',
      arguments: { station: 'S-1' },
    });
    const controller = new AbortController();
    const storm = runtime.callTool(
      prompt,
      { name: 'watch_storm' },
      {
        signal: controller.signal,
        onProgress: (report) => {
          progress.push(report);
          controller.abort('enough');
        },
      },
    );

    expect(invalid.result.success).toBe(false);
    expect(invalid.message).toContain('days');
    expect(forecast.message).toBe('Lyon: sunny for 2 days.');
    expect(forecast.result.value).toEqual({ city: 'Lyon', days: 2, sky: 'sunny' });
    expect(refused.result.success).toBe(false);
    expect(refused.message).toBe('Station S-1 is locked.');
    await expect(storm).rejects.toThrow();
    expect(progress).toEqual([{ progress: 1, total: 2, message: 'storm found' }]);
    await eventually('the server to see the cancellation', () => log.cancelled !== undefined);
    expect(log.cancelled).toContain('enough');
    // The invalid call never reached the server.
    expect(log.calls).toEqual(['get_forecast Lyon 2', 'close_station S-1', 'watch_storm']);
  });

  it('skips a tool whose schema it cannot validate, telling onSkippedTools, or refuses it when strict', async () => {
    const told: string[][] = [];
    const section = await inMemory(
      newLog(),
      { onSkippedTools: (skipped) => told.push(skipped.map((tool) => tool.name)) },
      { backreference: true },
    );
    expect(section.tools.map((tool) => tool.name)).not.toContain('set_siren');
    expect(section.tools).toHaveLength(4);
    expect(section.skipped).toEqual([
      {
        name: 'set_siren',
        problems: [
          {
            pointer: '/properties/code',
            keyword: 'pattern',
            message: expect.stringContaining("backreference '\\1'") as string,
          },
        ],
      },
    ]);
    expect(told).toEqual([['set_siren']]);

    const refused = inMemory(newLog(), { unsupportedSchemas: 'error' }, { backreference: true });
    await expect(refused).rejects.toThrow(ConfigurationError);
    await expect(refused).rejects.toThrow(/'set_siren': \/properties\/code pattern/);
    await expect(refused).rejects.toThrow(
      "Fix: Leave `unsupportedSchemas` at its default ('skip')",
    );
  });

  it('offers and calls a tool whose param is a union (refused before JSON Schema params)', async () => {
    const section = await inMemory(newLog(), { unsupportedSchemas: 'error' }, { union: true });
    const outcome = await installAffordance(new Container()).callTool(promptWith(section), {
      name: 'set_alert',
      arguments: { level: 3 },
    });
    expect(outcome.message).toBe('set');
    const invalid = await installAffordance(new Container()).callTool(promptWith(section), {
      name: 'set_alert',
      arguments: { level: true },
    });
    expect(invalid.result.success).toBe(false);
    expect(invalid.message).toContain('level: must be string');
  });

  it("fits a server's tool name and description to the tool rules, keeping the whole description in the body", async () => {
    const log = newLog();
    const section = await inMemory(log, {}, { odd: true });
    const prompt = promptWith(section);
    const tool = section.tools.find((candidate) => candidate.name === 'station_status');

    expect(tool?.description).toMatch(/^Statut de la station meteo details details .*\.\.\.$/);
    expect(tool?.description.length).toBe(200);
    const text = prompt.render().text;
    expect(text).toContain('The tools in full:');
    expect(text).toContain(
      `- \`station_status\`: Statut de la station météo — ${'détails '.repeat(40)}fin.`,
    );
    const outcome = await installAffordance(new Container()).callTool(prompt, {
      name: 'station_status',
      arguments: { station: 'S-9' },
    });
    expect(outcome.message).toBe('Station S-9 is up.');
    expect(log.calls).toEqual(['Station.Status S-9']);
  });

  it('prefixes tool names and picks up a tool the server adds', async () => {
    const log = newLog();
    const section = await inMemory(log, { toolPrefix: 'wx_' });
    expect(section.tools.map((tool) => tool.name)).toEqual([
      'wx_get_forecast',
      'wx_close_station',
      'wx_watch_storm',
      'wx_unlock_radar',
    ]);

    log.servers[0]?.registerTool('get_radar', { description: 'Radar image.' }, () => ({
      content: [{ type: 'text', text: 'radar' }],
    }));
    await eventually('the section to list the new tool', () => section.tools.length === 5);

    expect(section.tools.map((tool) => tool.name)).toContain('wx_get_radar');
  });

  it('offers a tool the server adds during a call from the next request of the same evaluation', async () => {
    const log = newLog();
    const prompt = promptWith(await inMemory(log));
    const adapter = new ScriptedAdapter([
      { toolCalls: [{ callId: 'c1', name: 'unlock_radar', arguments: '{}' }] },
      { toolCalls: [{ callId: 'c2', name: 'get_radar', arguments: '{}' }] },
      { text: 'Rain to the west.' },
    ]);
    const session = new Session();

    const response = await installAffordance(new Container()).evaluate(prompt, {
      adapter,
      session,
    });

    expect(response.text).toBe('Rain to the west.');
    const offered = adapter.requests.map((request) => request.tools.map((tool) => tool.name));
    expect(offered[0]).not.toContain('get_radar');
    expect(offered[1]).toContain('get_radar');
    expect(
      session
        .slice(ToolInvoked)
        .all()
        .map((event) => [event.name, event.outcome]),
    ).toEqual([
      ['unlock_radar', 'success'],
      ['get_radar', 'success'],
    ]);
    expect(log.calls).toEqual(['unlock_radar', 'get_radar']);
  });

  it('keeps its tools and reports why when listing again after a change fails', async () => {
    const log = newLog();
    const errors: unknown[] = [];
    const section = await inMemory(log, {
      unsupportedSchemas: 'error',
      onRefreshError: (error) => errors.push(error),
    });

    log.servers[0]?.registerTool(
      'set_alert',
      { description: 'Set an alert.', inputSchema: { level: z.string().regex(/^(a+)\1$/) } },
      () => ({ content: [{ type: 'text', text: 'set' }] }),
    );
    await eventually('the failed refresh to be reported', () => errors.length > 0);

    expect(section.tools.map((tool) => tool.name)).toEqual([
      'get_forecast',
      'close_station',
      'watch_storm',
      'unlock_radar',
    ]);
    expect(section.refreshError).toBe(errors[0]);
    expect(String(errors[0])).toContain("'set_alert': /properties/level pattern");
  });

  it('reconnects for the next call after the connection dropped, and fails calls once closed', async () => {
    const log = newLog();
    const section = await inMemory(log);
    const runtime = installAffordance(new Container());
    const prompt = promptWith(section);
    const call = { name: 'get_forecast', arguments: { city: 'Nice', days: 1 } };

    await log.servers[0]?.close();
    const after = await runtime.callTool(prompt, call);
    await section.close();
    const closed = await runtime.callTool(prompt, call);

    expect(after.message).toBe('Nice: sunny for 1 days.');
    expect(log.servers).toHaveLength(2);
    expect(closed.result.success).toBe(false);
    expect(closed.message).toContain("The MCP server 'weather' failed the call of 'get_forecast'");
  });

  it('says which server it could not reach, with a Fix', async () => {
    await expect(
      McpToolsSection.connect({
        key: 'nowhere',
        server: { url: 'http://127.0.0.1:9/mcp' },
        reconnectAttempts: 0,
      }),
    ).rejects.toThrow(
      /McpToolsSection 'nowhere': could not connect to its MCP server: .*Fix: Check `server`/s,
    );
  });

  it('runs an MCP tool and a local tool called in one turn, over Streamable HTTP', async () => {
    const log = newLog();
    const transports = new Map<string, StreamableHTTPServerTransport>();
    const http = createServer((req, res) => {
      const id = req.headers['mcp-session-id'] as string | undefined;
      let transport = id === undefined ? undefined : transports.get(id);
      if (transport === undefined) {
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => `s-${transports.size + 1}`,
          onsessioninitialized: (sessionId: string): void => {
            transports.set(sessionId, created);
          },
        });
        void weatherServer(log).connect(created);
        transport = created;
      }
      void transport.handleRequest(req, res);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    try {
      const section = await McpToolsSection.connect({
        key: 'weather',
        server: { url: `http://127.0.0.1:${port}/mcp` },
      });
      sections.push(section);
      const local = new ToolDefinition({
        name: 'note_city',
        description: 'Note the city asked about.',
        handler: () => ToolResult.ok(null, 'Noted.'),
      });
      const adapter = new ScriptedAdapter([
        {
          toolCalls: [
            { callId: 'c1', name: 'get_forecast', arguments: '{"city":"Paris","days":3}' },
            { callId: 'c2', name: 'note_city', arguments: '{}' },
          ],
        },
        { text: 'Sunny in Paris.' },
      ]);
      const session = new Session();

      const response = await installAffordance(new Container()).evaluate(
        promptWith(section, [local]),
        {
          adapter,
          session,
        },
      );

      expect(response.text).toBe('Sunny in Paris.');
      expect(
        session
          .slice(ToolInvoked)
          .all()
          .map((event) => [event.name, event.outcome]),
      ).toEqual([
        ['get_forecast', 'success'],
        ['note_city', 'success'],
      ]);
      expect(log.calls).toEqual(['get_forecast Paris 3']);
      expect(adapter.requests[1]?.messages.filter((m) => m.role === 'tool')).toMatchObject([
        { role: 'tool', callId: 'c1', content: 'Paris: sunny for 3 days.' },
        { role: 'tool', callId: 'c2', content: 'Noted.' },
      ]);
    } finally {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      await new Promise((resolve) => http.close(resolve));
    }
  });
});
