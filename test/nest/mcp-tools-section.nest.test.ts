/**
 * An `McpToolsSection` provided by a Nest module closes its connection when
 * the application closes.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Module } from '@nestjs/common';
import { Container } from 'inversify';

import { installAffordance, MarkdownSection, Prompt } from 'affordance';
import { McpToolsSection } from 'affordance/mcp';

import { weatherServer, type WeatherLog } from '../mcp/weather-server.js';
import { createContext } from '../support/nest-http.js';

const WEATHER = Symbol('weather');
const log: WeatherLog = { calls: [], cancelled: undefined, servers: [] };

@Module({
  providers: [
    {
      provide: WEATHER,
      useFactory: () =>
        McpToolsSection.connect({
          key: 'weather',
          server: {
            transport: () => {
              const [client, server] = InMemoryTransport.createLinkedPair();
              void weatherServer(log).connect(server);
              return client;
            },
          },
          reconnectAttempts: 0,
        }),
    },
  ],
})
class WeatherModule {}

describe('McpToolsSection in a Nest application', () => {
  it('is closed with the application', async () => {
    const app = await createContext(WeatherModule);
    const section = app.get<McpToolsSection>(WEATHER);
    const prompt = new Prompt({
      ns: 'test',
      key: 'nest-weather',
      sections: [new MarkdownSection({ key: 'desk', title: 'Desk', template: 'Help.' }), section],
    });
    const runtime = installAffordance(new Container());
    const call = { name: 'get_forecast', arguments: { city: 'Oslo', days: 1 } };

    const before = await runtime.callTool(prompt, call);
    await app.close();
    const after = await runtime.callTool(prompt, call);

    expect(before.message).toBe('Oslo: sunny for 1 days.');
    expect(after.result.success).toBe(false);
    expect(after.message).toContain('The MCP connection was closed.');
    expect(log.calls).toEqual(['get_forecast Oslo 1']);
  });
});
