/**
 * An MCP server written with the SDK's high-level `McpServer` and zod, as a
 * third party would write one: the server the `McpToolsSection` tests use.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** What the server saw, for the tests to read. */
export interface WeatherLog {
  readonly calls: string[];
  cancelled: string | undefined;
  /** The servers made so far (one per connection). */
  readonly servers: McpServer[];
}

export function weatherServer(
  log: WeatherLog,
  options: { union?: boolean; odd?: boolean; backreference?: boolean } = {},
): McpServer {
  const server = new McpServer(
    { name: 'weather', version: '2.0.0' },
    { instructions: 'Forecasts come from the weather service; cite the city.' },
  );
  server.registerTool(
    'get_forecast',
    {
      description: 'Forecast for a city.',
      inputSchema: {
        city: z.string().min(1).describe('City name'),
        days: z.number().int().min(1).max(7),
      },
      annotations: { readOnlyHint: true },
    },
    ({ city, days }) => {
      log.calls.push(`get_forecast ${city} ${days}`);
      return {
        content: [{ type: 'text', text: `${city}: sunny for ${days} days.` }],
        structuredContent: { city, days, sky: 'sunny' },
      };
    },
  );
  server.registerTool(
    'close_station',
    { description: 'Close a weather station.', inputSchema: { station: z.string() } },
    ({ station }) => {
      log.calls.push(`close_station ${station}`);
      return { content: [{ type: 'text', text: `Station ${station} is locked.` }], isError: true };
    },
  );
  server.registerTool(
    'watch_storm',
    { description: 'Watch a storm until told to stop.' },
    async (extra) => {
      log.calls.push('watch_storm');
      const token = extra._meta?.progressToken;
      if (token !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: 1, total: 2, message: 'storm found' },
        });
      }
      await new Promise<void>((resolve) => {
        if (extra.signal.aborted) {
          log.cancelled = String(extra.signal.reason);
          resolve();
        }
        extra.signal.addEventListener('abort', () => {
          log.cancelled = String(extra.signal.reason);
          resolve();
        });
      });
      return { content: [{ type: 'text', text: 'stopped' }] };
    },
  );
  server.registerTool('unlock_radar', { description: 'Unlock the radar tool.' }, () => {
    log.calls.push('unlock_radar');
    server.registerTool('get_radar', { description: 'Radar image.' }, () => {
      log.calls.push('get_radar');
      return { content: [{ type: 'text', text: 'Radar: rain to the west.' }] };
    });
    return { content: [{ type: 'text', text: 'Radar unlocked.' }] };
  });
  if (options.union === true) {
    server.registerTool(
      'set_alert',
      {
        description: 'Set an alert.',
        inputSchema: { level: z.union([z.string(), z.number()]) },
      },
      () => ({ content: [{ type: 'text', text: 'set' }] }),
    );
  }
  if (options.backreference === true) {
    server.registerTool(
      'set_siren',
      {
        description: 'Set a siren.',
        inputSchema: { code: z.string().regex(/^(a+)\1$/) },
      },
      () => ({ content: [{ type: 'text', text: 'set' }] }),
    );
  }
  if (options.odd === true) {
    server.registerTool(
      'Station.Status',
      {
        description: `Statut de la station météo — ${'détails '.repeat(40)}fin.`,
        inputSchema: { station: z.string() },
      },
      ({ station }) => {
        log.calls.push(`Station.Status ${station}`);
        return { content: [{ type: 'text', text: `Station ${station} is up.` }] };
      },
    );
  }
  log.servers.push(server);
  return server;
}
